import Docker from 'dockerode';
import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import * as tar from 'tar-stream';
import { fileBytes, type ProjectFiles } from '../domain/files';
import type { CgroupCounters, CounterSpan } from '../ecosystems/resourceLimits';

export function connectDocker(): Docker {
  return process.env.DOCKER_HOST ? new Docker() : new Docker({ socketPath: '/var/run/docker.sock' });
}

function isNotFound(err: unknown): boolean {
  return (err as { statusCode?: number }).statusCode === 404;
}

export async function removeContainerIfExists(docker: Docker, name: string): Promise<boolean> {
  try {
    await docker.getContainer(name).remove({ force: true, v: true });
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    // 409: removal already in progress (a crashed attempt's cleanup); wait for it to finish.
    if ((err as { statusCode?: number }).statusCode === 409) {
      for (let i = 0; i < 20; i++) {
        await new Promise((r) => setTimeout(r, 500));
        try {
          await docker.getContainer(name).inspect();
        } catch (e) {
          if (isNotFound(e)) return true;
        }
      }
    }
    throw err;
  }
}

export async function imageExists(docker: Docker, tag: string): Promise<boolean> {
  try {
    await docker.getImage(tag).inspect();
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

/** A tar of the files, each as its bytes: a binary (see domain/files.ts) is decoded, so it arrives byte for byte. */
export function packFiles(files: ProjectFiles): NodeJS.ReadableStream {
  const pack = tar.pack();
  for (const [name, content] of Object.entries(files)) pack.entry({ name, mode: 0o644 }, fileBytes(content));
  pack.finalize();
  return pack as unknown as NodeJS.ReadableStream;
}

/** Copies files into `dir`, which need not exist yet (the archive is unpacked at / with its path). */
export async function putFiles(container: Docker.Container, dir: string, files: ProjectFiles): Promise<void> {
  const prefix = dir.replace(/^\/+|\/+$/g, '');
  const rooted = Object.fromEntries(Object.entries(files).map(([name, content]) => [prefix ? `${prefix}/${name}` : name, content]));
  await container.putArchive(packFiles(rooted), { path: '/' });
}

/** Reads one file out of a container (null when absent), keeping at most `maxBytes`. */
export async function readContainerFile(container: Docker.Container, path: string, maxBytes = 64 * 1024 * 1024): Promise<Buffer | null> {
  let archive: NodeJS.ReadableStream;
  try {
    archive = await container.getArchive({ path });
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
  const extract = tar.extract();
  const chunks: Buffer[] = [];
  let size = 0;
  await new Promise<void>((resolve, reject) => {
    extract.on('entry', (_header, stream, next) => {
      stream.on('data', (chunk: unknown) => {
        const c = chunk as Buffer;
        if (size < maxBytes) chunks.push(c.subarray(0, maxBytes - size));
        size += c.length;
      });
      stream.on('end', next);
      stream.on('error', reject);
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
    archive.pipe(extract);
  });
  return Buffer.concat(chunks);
}

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

/** The variable that marks every process one exec starts (children inherit it), so that what the main process leaves can be found. */
export const EXEC_MARK = 'ENVGAP_EXEC';

/**
 * The shell around every command (bash, builtins only once the command runs, so that it still works
 * when forks are refused at the pids limit). It reads the cgroup counters, runs the command under
 * coreutils `timeout`, and when the main process has exited (or was killed at the limit) SIGKILLs every
 * process still carrying this exec's mark: a daemonized child that holds stdout no longer keeps the
 * output open, nor the tracer waiting. It then prints its report on stderr (the exit, the counters),
 * which execInContainer takes out of the output. Arguments: the limit, 1 (the command is the main
 * process) or 2 (its first child is), the file on the command's standard input (/dev/null by default),
 * the command.
 */
export const EXEC_WRAPPER = `
mark="${EXEC_MARK}=$${EXEC_MARK}"
limit=$1 depth=$2 input=$3
shift 3
counters() {
  local k v oom=- fail=- peak=- lim=- pmax=- m=/sys/fs/cgroup/memory f
  if [[ -r $m/memory.oom_control ]]; then
    while read -r k v; do [[ $k == oom_kill ]] && oom=$v; done < $m/memory.oom_control
    [[ -r $m/memory.failcnt ]] && read -r fail < $m/memory.failcnt
    [[ -r $m/memory.max_usage_in_bytes ]] && read -r peak < $m/memory.max_usage_in_bytes
    [[ -r $m/memory.limit_in_bytes ]] && read -r lim < $m/memory.limit_in_bytes
  elif [[ -r /sys/fs/cgroup/memory.events ]]; then
    while read -r k v; do case $k in oom_kill) oom=$v ;; max) fail=$v ;; esac; done < /sys/fs/cgroup/memory.events
    [[ -r /sys/fs/cgroup/memory.peak ]] && read -r peak < /sys/fs/cgroup/memory.peak
    [[ -r /sys/fs/cgroup/memory.max ]] && read -r lim < /sys/fs/cgroup/memory.max
  fi
  for f in /sys/fs/cgroup/pids/pids.events /sys/fs/cgroup/pids.events; do
    if [[ -r $f ]]; then
      while read -r k v; do [[ $k == max ]] && pmax=$v; done < $f
      break
    fi
  done
  REPLY="$oom,$fail,$peak,$lim,$pmax"
}
# REPLY: a live child of $1 (whose command name is $2, when given), or empty.
child_of() {
  local p st rest f
  REPLY=
  for p in /proc/[0-9]*; do
    read -r st 2>/dev/null < "$p/stat" || continue
    rest=\${st##*) }
    f=($rest)
    if [[ \${f[1]} == "$1" && \${f[0]} != Z && ( -z $2 || $st == *"($2) "* ) ]]; then
      REPLY=\${p#/proc/}
      return
    fi
  done
}
# Whether process $1 runs the command named $2.
runs() {
  local st
  read -r st 2>/dev/null < "/proc/$1/stat" || return 1
  [[ $st == *"($2) "* ]]
}
alive() {
  local st
  read -r st 2>/dev/null < "/proc/$1/stat" || return 1
  st=\${st##*) }
  [[ \${st:0:1} != Z ]]
}
# SIGKILLs every marked process but this shell, its helpers and the pids given; again until none is left.
sweep() {
  local round p pid kv found
  for round in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
    found=
    for p in /proc/[0-9]*; do
      pid=\${p#/proc/}
      [[ $pid == "$$" || $pid == "$BASHPID" || " $* " == *" $pid "* ]] && continue
      while IFS= read -r -d '' kv; do
        if [[ $kv == "$mark" ]]; then
          kill -9 "$pid" 2>/dev/null
          found=1
          break
        fi
      done 2>/dev/null < "$p/environ"
    done
    [[ -z $found ]] && return
  done
}
# Depth 2: the main process is the tracer's first child. Once it is gone (it exited, or strace has had
# no child for a second: the program ended before it was seen), what it left is killed, and the tracer
# then exits with the program's status.
watch() {
  local top= x= m= idle=0
  while [[ -z $top ]]; do child_of "$$" timeout; top=$REPLY; [[ -z $top ]] && read -r -t 0.02 -u "$tick"; done
  while alive "$top"; do
    if [[ -n $m ]]; then
      # The main process is gone: look again before concluding, strace may have more children.
      alive "$m" || { m=; idle=0; }
    else
      [[ -z $x ]] && { child_of "$top"; x=$REPLY; }
      if [[ -n $x ]]; then
        child_of "$x"
        if [[ -z $REPLY ]]; then
          runs "$x" strace && (( ++idle >= 10 )) && break
        else
          # A child still named strace is one of strace's start-up probes, or the tracee before its
          # exec: not yet the program, but strace is busy.
          idle=0
          runs "$REPLY" strace || m=$REPLY
        fi
      fi
    fi
    read -r -t 0.1 -u "$tick"
  done
  alive "$top" && sweep "$tick_pid" "$top" "$x"
}
counters; before=$REPLY
exec {tick}< <(exec sleep infinity)
tick_pid=$!
watcher=
if [[ $depth == 2 ]]; then watch & watcher=$!; disown "$watcher"; fi
timeout -k 5 "$limit" "$@" < "$input" &
top=$!
wait "$top"
code=$?
[[ -n $watcher ]] && kill -9 "$watcher" 2>/dev/null
sweep "$tick_pid"
kill -9 "$tick_pid" 2>/dev/null
counters; after=$REPLY
printf '\\n<<envgap-exec %s exit=%s before=%s after=%s>>\\n' "$${EXEC_MARK}" "$code" "$before" "$after" >&2
exit "$code"
`;

/** Kills what an exec left when its wrapper did not (it was killed itself): every process with its mark. */
export const EXEC_SWEEP = `
mark="${EXEC_MARK}=$1"
for round in 1 2 3 4 5; do
  found=
  for p in /proc/[0-9]*; do
    pid=\${p#/proc/}
    [[ $pid == "$$" ]] && continue
    while IFS= read -r -d '' kv; do
      if [[ $kv == "$mark" ]]; then kill -9 "$pid" 2>/dev/null; found=1; break; fi
    done 2>/dev/null < "$p/environ"
  done
  [[ -z $found ]] && break
done
true
`;

/** How long after the wrapper's report a stream that stays open (a process that shed the mark holds it) is cut. */
const REPORT_GRACE_MS = 2000;
/** How long past the time limit (and timeout's -k) an exec may last before its processes are killed from outside. */
const HARD_DEADLINE_EXTRA_S = 5 + 30;

function parseCounters(text: string): CgroupCounters | null {
  const f = text.split(',');
  if (f.length !== 5) return null;
  const n = (v: string) => (/^\d+$/.test(v) ? Number(v) : null);
  return { oomKills: n(f[0]), memoryFailcnt: n(f[1]), memoryPeakBytes: n(f[2]), memoryLimitBytes: n(f[3]), pidsLimitHits: n(f[4]) };
}

/** Takes the wrapper's report out of the output: the output without it, the exit it reported, the counters. */
export function takeExecReport(output: string, id: string): { output: string; exitCode: number | null; counters: CounterSpan | null } {
  const re = new RegExp(`\\n?<<envgap-exec ${id} exit=(\\d+) before=(\\S+) after=(\\S+)>>\\n?`);
  const m = re.exec(output);
  if (!m) return { output, exitCode: null, counters: null };
  const before = parseCounters(m[2]);
  const after = parseCounters(m[3]);
  return {
    output: output.slice(0, m.index) + output.slice(m.index + m[0].length),
    exitCode: Number(m[1]),
    counters: before && after ? { before, after } : null,
  };
}

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
