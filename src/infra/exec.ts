import type Docker from 'dockerode';
import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import type { CounterSpan } from '../ecosystems/resourceLimits';
import { EXEC_MARK, EXEC_SWEEP, EXEC_WRAPPER, takeExecReport } from './execWrapper';

export interface ExecResult {
  exitCode: number | null;
  output: string;
  timedOut: boolean;
  durationMs: number;
  /** The container's cgroup counters just before and just after the command; null where the wrapper did not report them. */
  counters?: CounterSpan | null;
}

export interface ExecOptions {
  timeoutS: number;
  workdir?: string;
  env?: string[];
  maxOutputBytes?: number;
  /**
   * Whose exit ends the command: the command's own (default), or that of its first child, for a command
   * that is a tracer (strace waits for every process it follows, a daemon the program left included).
   */
  main?: 'command' | 'tracee';
  /** Called on each chunk of the command's output (stdout or stderr) before the wrapper's report. */
  onOutput?: () => void;
  /** A file in the container that the command reads as its standard input; /dev/null where absent. */
  stdinFile?: string;
}

/** How long after the wrapper's report a stream that stays open (a process that shed the mark holds it) is cut. */
const REPORT_GRACE_MS = 2000;
/** How long past the time limit (and timeout's -k) an exec may last before its processes are killed from outside. */
const HARD_DEADLINE_EXTRA_S = 5 + 30;

/**
 * Runs a command in a running container, judged by its main process: the exec ends when that process
 * exits, and whatever it left running (a daemonized child holding stdout) is killed then. The time
 * limit is enforced inside the container with coreutils `timeout`, so a command that overruns is
 * killed there and reported as timed out; what it left is killed with it. Should the wrapper itself
 * not report in time, the exec's processes are killed from a second exec and the stream is cut.
 */
export async function execInContainer(container: Docker.Container, cmd: string[], opts: ExecOptions): Promise<ExecResult> {
  const id = randomBytes(8).toString('hex');
  // From the exec's creation: Docker's cost of starting the command is the step's, not the harness's.
  const started = Date.now();
  const depth = opts.main === 'tracee' ? '2' : '1';
  const exec = await container.exec({
    Cmd: ['bash', '-c', EXEC_WRAPPER, 'envgap-exec', String(opts.timeoutS), depth, opts.stdinFile ?? '/dev/null', ...cmd],
    AttachStdout: true,
    AttachStderr: true,
    WorkingDir: opts.workdir,
    Env: [...(opts.env ?? []), `${EXEC_MARK}=${id}`],
  });
  const stream = await exec.start({ hijack: true, stdin: false });
  const max = opts.maxOutputBytes ?? 4 * 1024 * 1024;
  const head: Buffer[] = [];
  let headSize = 0;
  let tail = Buffer.alloc(0);
  let dropped = 0;
  // The last bytes seen, to notice the wrapper's report however the stream splits it.
  const reportStart = `<<envgap-exec ${id} `;
  let recent = '';
  let reported = false;
  let finish: () => void = () => undefined;
  let grace: NodeJS.Timeout | undefined;
  const sink = new PassThrough();
  sink.on('data', (chunk: unknown) => {
    const c = chunk as Buffer;
    if (!reported) {
      opts.onOutput?.();
      recent = (recent + c.toString('latin1')).slice(-4096);
      const at = recent.indexOf(reportStart);
      if (at >= 0 && recent.indexOf('>>', at) >= 0) {
        reported = true;
        grace = setTimeout(() => finish(), REPORT_GRACE_MS);
      }
    }
    if (headSize < max / 2) {
      head.push(c);
      headSize += c.length;
      return;
    }
    tail = Buffer.concat([tail, c]);
    if (tail.length > max / 2) {
      dropped += tail.length - max / 2;
      tail = tail.subarray(tail.length - max / 2);
    }
  });
  container.modem.demuxStream(stream, sink, sink);
  let cutOff = false;
  let deadline: NodeJS.Timeout | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      finish = () => {
        (stream as unknown as { destroy?: () => void }).destroy?.();
        resolve();
      };
      stream.on('end', resolve);
      stream.on('close', resolve);
      stream.on('error', reject);
      deadline = setTimeout(() => {
        cutOff = true;
        void sweepExec(container, id).finally(() => finish());
      }, (opts.timeoutS + HARD_DEADLINE_EXTRA_S) * 1000);
    });
  } finally {
    if (grace) clearTimeout(grace);
    if (deadline) clearTimeout(deadline);
  }
  const durationMs = Date.now() - started;
  const omitted = dropped > 0 ? `\n[... ${dropped} bytes omitted ...]\n` : '';
  const report = takeExecReport(Buffer.concat(head).toString('utf8') + omitted + tail.toString('utf8'), id);
  let exitCode = report.exitCode;
  if (exitCode === null) {
    const info = await exec.inspect();
    exitCode = info.Running ? null : (info.ExitCode ?? null);
  }
  const timedOut = cutOff || exitCode === 124 || (exitCode === 137 && durationMs >= opts.timeoutS * 1000);
  return { exitCode, output: report.output, timedOut, durationMs, counters: report.counters };
}

/** Kills every process of the container that carries the exec's mark (a best effort: the container may be gone). */
async function sweepExec(container: Docker.Container, id: string): Promise<void> {
  try {
    const exec = await container.exec({ Cmd: ['bash', '-c', EXEC_SWEEP, 'envgap-sweep', id], AttachStdout: true, AttachStderr: true });
    const stream = await exec.start({ hijack: true, stdin: false });
    await new Promise<void>((resolve) => {
      stream.on('end', resolve);
      stream.on('close', resolve);
      stream.on('error', () => resolve());
      stream.resume();
      setTimeout(resolve, 20000);
    });
  } catch {
    // The container is gone or unreachable: its processes went with it, or the caller finds out.
  }
}
