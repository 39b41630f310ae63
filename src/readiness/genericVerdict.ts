import type { FailureCategory, GenericAllReduceVerdict, GenericKernelVerdict, GenericVerdict } from '../domain/readiness';
import { excerpt } from '../text/excerpt';
import { failureCategory, type ProbeRun } from './failureCategory';

/**
 * The verdicts of the generic C3 and C4 probes (the scripts in probeScripts.ts), from their output
 * alone: no I/O. The numbers are judged here, not taken from the scripts' own exit.
 */

/** Timeouts as the output tells them: torch's collective watchdog, its store, the rendezvous, Python's own. */
const TIMEOUT_TEXT = /Watchdog caught collective operation timeout|DistStoreError: Timed out|timed out after \d+|RendezvousTimeoutError|\bTimeoutError\b|Socket Timeout/i;
/** NCCL that could not get its shared memory: /dev/shm too small (Docker's default is 64 MiB). */
const SHM_TEXT = /\/dev\/shm|shared memory|No space left on device|Bus error/i;

/** The last line of the output that is a JSON object of the given probe; null where none. */
function probeJson(output: string, probe: GenericVerdict['probe']): Record<string, unknown> | null {
  for (const line of output.split('\n').reverse()) {
    if (!line.trimStart().startsWith('{')) continue;
    try {
      const value = JSON.parse(line) as unknown;
      if (value && typeof value === 'object' && !Array.isArray(value) && (value as { probe?: unknown }).probe === probe) return value as Record<string, unknown>;
    } catch {
      // A log line that only looks like JSON: keep looking.
    }
  }
  return null;
}

const FRAMEWORKS = ['torch', 'tensorflow', 'jax'] as const;
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const timings = (v: unknown): Record<string, number> =>
  v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).filter((e): e is [string, number] => num(e[1]) !== null)) : {};

/** How the probe's command ended, as the activity saw it. */
export interface GenericRun {
  output: string;
  exitCode: number | null;
  timedOut: boolean;
}

const timedOut = (run: GenericRun) => run.timedOut || TIMEOUT_TEXT.test(run.output);

export function kernelVerdict(run: GenericRun, device: 'cuda' | 'cpu'): GenericKernelVerdict {
  const j = probeJson(run.output, 'kernel');
  const framework = FRAMEWORKS.find((f) => f === j?.framework) ?? null;
  const seen = {
    framework,
    framework_version: str(j?.framework_version),
    device,
    device_name: str(j?.device_name),
    size: num(j?.size),
    max_abs_error: num(j?.max_abs_error),
    tolerance: num(j?.tolerance),
    scale: num(j?.scale),
    timings_s: timings(j?.timings_s),
    error: str(j?.error),
  };
  const within = seen.max_abs_error !== null && seen.tolerance !== null && seen.scale !== null && seen.max_abs_error <= seen.tolerance * Math.max(1, seen.scale);
  const problem: GenericKernelVerdict['problem'] = !j
    ? timedOut(run) ? 'timeout' : 'crashed'
    : !framework ? 'no_framework'
    : j.device_available === false ? 'no_device'
    : seen.error !== null ? (timedOut(run) ? 'timeout' : 'error')
    : !within ? 'mismatch'
    : null;
  const errors = j?.errors && typeof j.errors === 'object' ? Object.entries(j.errors).map(([k, v]) => `${k}: ${String(v)}`) : [];
  return { probe: 'kernel', ok: problem === null, problem, ...seen, error: seen.error ?? (problem === 'no_framework' && errors.length > 0 ? errors.join('; ') : null) };
}

export function allReduceVerdict(run: GenericRun, o: { backend: 'nccl' | 'gloo'; worldSize: number }): GenericAllReduceVerdict {
  const j = probeJson(run.output, 'all_reduce');
  const expected = (o.worldSize * (o.worldSize + 1)) / 2;
  const seen = {
    backend: o.backend,
    world_size: o.worldSize,
    seen_world_size: num(j?.world_size),
    expected,
    got: num(j?.got),
    mismatched_elements: num(j?.mismatched_elements),
    ranks_ok: num(j?.ranks_ok),
    framework_version: str(j?.framework_version),
    nccl_version: str(j?.nccl_version),
    device_name: str(j?.device_name),
    shm_bytes: num(j?.shm_bytes),
    timings_s: timings(j?.timings_s),
    error: str(j?.error),
  };
  const problem: GenericAllReduceVerdict['problem'] = !j
    ? timedOut(run) ? 'timeout' : 'crashed'
    : seen.error !== null ? (timedOut(run) ? 'timeout' : /^(ModuleNotFoundError|ImportError)\b/.test(seen.error) ? 'no_framework' : 'error')
    : seen.seen_world_size !== o.worldSize ? 'wrong_world_size'
    : seen.got !== expected || seen.mismatched_elements !== 0 || seen.ranks_ok !== o.worldSize ? 'wrong_sum'
    : null;
  const shm = seen.shm_bytes === null ? 'its size unknown' : `${Math.round(seen.shm_bytes / 2 ** 20)} MiB here`;
  const hint = problem !== null && o.backend === 'nccl' && SHM_TEXT.test(run.output) ? `NCCL may lack /dev/shm (${shm}): raise the study's limits.shm_mb` : null;
  return { probe: 'all_reduce', ok: problem === null, problem, ...seen, hint };
}

/** One line that says what the probe saw: the table's detail, and the head of a failure's excerpt. */
export function describeVerdict(v: GenericVerdict): string {
  if (v.probe === 'kernel') {
    const what = v.framework ? `${v.framework}${v.framework_version ? ` ${v.framework_version}` : ''} on ${v.device_name ?? v.device}` : `the kernel check on ${v.device}`;
    const matmul = v.timings_s.matmul === undefined ? '' : `, matmul ${v.size}x${v.size} ${v.timings_s.matmul.toFixed(3)} s`;
    switch (v.problem) {
      case null: return `${what}${matmul}, max abs error ${v.max_abs_error} <= ${v.tolerance} x ${Math.max(1, v.scale ?? 1).toFixed(1)}`;
      case 'mismatch': return `${what}: the device's matmul differs from the CPU's, max abs error ${v.max_abs_error} > ${v.tolerance} x ${Math.max(1, v.scale ?? 1).toFixed(1)}`;
      case 'no_device': return `${what}: ${v.framework} sees no GPU`;
      case 'no_framework': return `no framework imports (torch, tensorflow, jax)${v.error ? `: ${v.error}` : ''}`;
      case 'crashed': return `${what}: crashed before its verdict`;
      default: return `${what}: ${v.problem}${v.error ? `: ${v.error}` : ''}`;
    }
  }
  const what = `all-reduce over ${v.world_size} rank${v.world_size === 1 ? '' : 's'} (${v.backend}${v.nccl_version ? ` ${v.nccl_version}` : ''}${v.device_name ? `, ${v.device_name}` : ''})`;
  const took = v.timings_s.all_reduce === undefined ? '' : `, ${v.timings_s.all_reduce.toFixed(3)} s`;
  const tail = v.hint ? `; ${v.hint}` : '';
  switch (v.problem) {
    case null: return `${what}: sum ${v.got} = ${v.expected} on every rank${took}`;
    case 'wrong_sum': return `${what}: expected ${v.expected}, got ${v.got} (${v.mismatched_elements ?? '?'} elements wrong on rank 0, ${v.ranks_ok ?? '?'} of ${v.world_size} ranks right)${tail}`;
    case 'wrong_world_size': return `${what}: the ranks saw a world of ${v.seen_world_size}${tail}`;
    case 'crashed': return `${what}: crashed before rank 0's verdict${tail}`;
    default: return `${what}: ${v.problem}${v.error ? `: ${v.error}` : ''}${tail}`;
  }
}

/** The failure category a verdict's problem means; crashes and errors are read from the output as any probe's. */
function categoryOf(v: GenericVerdict, run: ProbeRun): FailureCategory {
  switch (v.problem) {
    case 'timeout': return 'timeout';
    case 'no_framework': return 'deps';
    case 'no_device':
    case 'mismatch':
    case 'wrong_sum':
    case 'wrong_world_size': return 'runtime';
    default: return failureCategory(run);
  }
}

/**
 * The stage's outcome: a success only where the command exited 0 within its time and the verdict is
 * ok (a verdict printed before a crash in teardown is not enough), else a failure whose excerpt is what
 * the probe saw, then the end of its output.
 */
export function judgeGeneric(run: ProbeRun, v: GenericVerdict): { status: 'success' | 'failure'; failure_category: FailureCategory | null; error_excerpt: string | null } {
  if (v.ok && run.exitCode === 0 && !run.timedOut) return { status: 'success', failure_category: null, error_excerpt: null };
  const category = v.ok ? failureCategory(run) : run.oomKilled ? 'oom' : categoryOf(v, run);
  // The end of the output: torchrun's and the framework's warnings come first, the error last.
  const tail = run.output.length > 1500 ? `…${run.output.slice(-1500)}` : run.output;
  return { status: 'failure', failure_category: category, error_excerpt: `${excerpt(describeVerdict(v), 500)}\n${tail}` };
}
