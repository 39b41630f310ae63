import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Writable } from 'node:stream';
import { TextTail } from './tail';

export interface RunShellOptions {
  cwd: string;
  /** The complete environment of the command; nothing is inherited. */
  env: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** How much of the combined stdout+stderr to keep. */
  outputTailChars: number;
  /** How much of stdout alone to keep (for usage reports printed by the agent). */
  stdoutTailChars: number;
}

export interface RunShellResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  /** stdout and stderr interleaved as they arrived, tail only. */
  output: string;
  stdout: string;
}

/** After the shell exits, how long to wait for its output pipes to close (a stray holder may keep them). */
const PIPE_CLOSE_GRACE_MS = 2000;

/**
 * Runs `sh -c command` as the leader of a new process group. On timeout or abort, and after the shell
 * exits, the whole group is killed, so an agent leaves no processes behind writing into the workspace.
 * A watchdog outside the group kills it too when this process dies (even by SIGKILL, which runs no
 * handler): it waits on a pipe from this process, and a dead process's pipes close.
 */
export function runShell(command: string, options: RunShellOptions): Promise<RunShellResult> {
  return new Promise((resolve, reject) => {
    const output = new TextTail(options.outputTailChars);
    const stdout = new TextTail(options.stdoutTailChars);
    let timedOut = false;
    let aborted = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let settled = false;

    const child = spawn('sh', ['-c', command], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });

    const watchdog = startWatchdog(child.pid);
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is already gone
      }
    };
    const onAbort = () => {
      aborted = true;
      killGroup();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();

    const finish = () => {
      if (settled || !exit) return;
      settled = true;
      watchdog?.stdin.end();
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({
        exitCode: exit.code,
        signal: exit.signal,
        timedOut,
        aborted,
        output: output.toString(),
        stdout: stdout.toString(),
      });
    };

    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      output.append(chunk);
      stdout.append(chunk);
    });
    child.stderr.on('data', (chunk: string) => output.append(chunk));

    child.on('error', (err) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      killGroup();
      watchdog?.stdin.end();
      reject(err);
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      killGroup();
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish();
      }, PIPE_CLOSE_GRACE_MS).unref();
    });
    child.on('close', finish);
  });
}

/**
 * `read` returns when the pipe closes: at the end of a normal run (the group is already gone), or when
 * this process died. Then the group is killed. The watchdog is detached, so a signal sent to this
 * process's group does not take it down before it has done its job.
 */
function startWatchdog(pgid: number | undefined): ChildProcessByStdio<Writable, null, null> | null {
  if (pgid === undefined) return null;
  const dog = spawn('sh', ['-c', 'read _ignored; kill -KILL "-$ENVGAP_AGENT_PGID" 2>/dev/null; exit 0'], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ENVGAP_AGENT_PGID: String(pgid) },
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  dog.on('error', () => undefined);
  dog.stdin.on('error', () => undefined);
  dog.unref();
  return dog;
}
