import { Context } from '@temporalio/activity';
import type Docker from 'dockerode';
import type { BlobStore } from '../../db/blobs';
import type { C0Result, CudaObservation, GenericVerdict, StageResult } from '../../domain/readiness';
import { instanceLimits, PROTOCOL_LIMIT_DEFAULTS, type SandboxLimitsInput } from '../../domain/sandboxLimits';
import type { Settings } from '../../infra/settings';
import { removeEarlierAttempts, SANDBOX_LABELS, type Sandbox } from '../../sandbox';
import type { InterpreterFacts } from '../../readiness/audit';
import { failureCategory } from '../../readiness/failureCategory';
import { ALL_REDUCE_ENV, allReduceCommand, GENERIC_DIR, GENERIC_FILES, kernelCheckCommand } from '../../readiness/genericCommands';
import { allReduceVerdict, judgeGeneric, kernelVerdict } from '../../readiness/genericVerdict';
import { pyrightCommand, TOOLS_DIR } from '../../readiness/images';
import { skipped } from '../../readiness/stages';
import { CUDA_CHECK_SCRIPT, FACTS_SCRIPT, IMPORTS_SCRIPT } from '../../readiness/probeScripts';
import { missingImports } from '../../readiness/pyright';
import { excerpt } from '../../text/excerpt';
import { shellQuote } from '../../text/shellQuote';
import { withHeartbeat } from '../heartbeat';
import { oomKilled, shell } from './containers';
import { openForAttempt, sandboxDeps, withLimit } from './sandboxes';
import { toolsVolume } from './toolsVolume';
import { REPO_SCRIPTS_DIR } from '../../domain/readinessStudy';
import type { GpuRequest } from '../../sandbox/gpuChoice';
import { sharedMachineBudget, type MachineBudget } from '../../infra/machineBudget';

export interface ProbeDeps {
  docker: Docker;
  blobs: BlobStore;
  settings: Settings;
  log?: (line: string) => void;
  /** This machine's CPUs and memory, shared with every other container the process opens (default: the process's own). */
  machine?: MachineBudget;
}

export interface ProbeInput {
  instanceId: string;
  frozenImage: string;
  memoryMb: number;
  cpus: number;
  /** The study's sandbox limits; absent in inputs from before they were carried. */
  limits?: SandboxLimitsInput;
  timeoutS: number;
  /** The study lets instances share GPUs (`gpu_share`); absent: each GPU is leased to one instance at a time. */
  gpuShare?: boolean;
  /** The repository's hidden scripts folder on this machine, mounted read-only at REPO_SCRIPTS_DIR for its own commands. */
  scripts?: string;
}

/** What a probe container asks of the worker's GPUs: C3's one, every GPU for the others; none without. */
function gpuRequest(input: ProbeInput, gpus: boolean, count: number | 'all' = 'all'): GpuRequest | false {
  return gpus ? { count, share: input.gpuShare ?? false } : false;
}

/** The repository's scripts, read-only, where its commands run (never in the agent's session). */
export const scriptsBind = (input: ProbeInput): string[] => (input.scripts ? [`${input.scripts}:${REPO_SCRIPTS_DIR}:ro`] : []);

/** The agent's interpreter first on PATH (python, torchrun, accelerate), as upstream's scripts resolve it from the report. */
export function interpreterEnv(python: string | null): string[] {
  if (!python) return ['ENVGAP_PYTHON=python3'];
  return [`ENVGAP_PYTHON=${python}`, `PATH=${python.slice(0, python.lastIndexOf('/'))}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin`];
}

/** The image the repository's commands run in once the prepare stage has written its assets (derived from the frozen one). */
export function preparedImageRef(frozenImage: string): string {
  return `${frozenImage}-prepared`;
}

/**
 * A generic C3 or C4 probe (docs/readiness.md): the kernel check on one GPU (c3), the all-reduce over
 * `nproc` ranks (c4; default: every GPU the container sees, or 2 without GPUs), with the report's
 * interpreter (python3 where it names none). Without GPUs the kernel runs on the CPU and the backend
 * defaults to gloo; with them, to nccl.
 */
export type GenericProbeInput = ProbeInput & { stage: 'c3' | 'c4'; python: string | null; gpus: boolean; backend?: 'nccl' | 'gloo'; nproc?: number };
/** The stage as the generic probe decided it, its whole output, and its verdict (null where it did not run: fewer than 2 GPUs for c4). */
export type GenericProbeResult = StageResult & { outputHash: string; verdict: GenericVerdict | null };

/** The last line of a probe's output that is a JSON object or array (its answer), parsed; null where none. */
const lastJsonLine = <T>(output: string): T | null => {
  const line = output.trim().split('\n').reverse().find((l) => /^\s*[[{]/.test(l));
  if (!line) return null;
  try {
    return JSON.parse(line) as T;
  } catch {
    return null;
  }
};

/** The GPUs a probe container sees (nvidia-smi -L), 0 where nvidia-smi does not answer. */
async function visibleGpus(sandbox: Sandbox): Promise<number> {
  const r = await shell(sandbox, 'nvidia-smi -L', 60);
  return r.exitCode === 0 ? r.output.split('\n').filter((l) => /^GPU \d+:/.test(l)).length : 0;
}

export type InProbe = <T>(input: ProbeInput, role: string, opts: { binds?: string[]; env?: string[]; gpus?: GpuRequest | false }, work: (c: Sandbox) => Promise<T>) => Promise<T>;

/** Runs `work` in a fresh sandbox of `input.frozenImage` (the instance's `role`), under the study's limits and this machine's budget, then removes it. */
export function probeRunner({ docker, settings, log, machine = sharedMachineBudget() }: Omit<ProbeDeps, 'blobs'>): InProbe {
  const deps = sandboxDeps({ docker, settings, log });
  return async function inProbe<T>(input: ProbeInput, role: string, opts: { binds?: string[]; env?: string[]; gpus?: GpuRequest | false }, work: (c: Sandbox) => Promise<T>): Promise<T> {
    const owner = { instanceId: input.instanceId, protocol: 'readiness' as const, role, attempt: Context.current().info.attempt };
    const limits = instanceLimits(input, PROTOCOL_LIMIT_DEFAULTS.readiness);
    // Earlier attempts' containers go before waiting for the machine, which they may still hold.
    await removeEarlierAttempts(docker, { [SANDBOX_LABELS.instance]: owner.instanceId, [SANDBOX_LABELS.role]: role }, owner.attempt);
    return machine.with({ cpus: limits.cpus, memoryMb: limits.memory_mb }, Context.current().cancellationSignal, async () => {
      const sandbox = await openForAttempt(deps, { owner, image: input.frozenImage, limits, ...opts });
      try {
        return await work(sandbox);
      } finally {
        await sandbox.close().catch(() => undefined);
      }
    });
  };
}

export function createProbeActivities({ docker, blobs, settings, log, machine = sharedMachineBudget() }: ProbeDeps) {
  const inProbe = probeRunner({ docker, settings, log, machine });

  async function stage(sandbox: Sandbox, command: string, timeoutS: number, env: string[] = []): Promise<StageResult & { output: string }> {
    const r = await shell(sandbox, command, timeoutS, env);
    const ok = r.exitCode === 0 && !r.timedOut;
    // A limit the probe reached is said at the end of its output (and so of its excerpt).
    const seen = ok ? { output: r.output } : await withLimit(sandbox, r, 'the probe');
    return {
      status: ok ? 'success' : 'failure',
      skip_reason: null,
      failure_category: ok ? null : failureCategory({ exitCode: r.exitCode, timedOut: r.timedOut, oomKilled: oomKilled(r), output: r.output }),
      exit_code: r.exitCode,
      error_excerpt: ok ? null : excerpt(seen.output, 2000),
      duration_s: r.durationMs / 1000,
      command,
      output: seen.output,
    };
  }

  return {
    /**
     * C0: pyright's reportMissingImports over the repository with the agent's interpreter, counted by
     * distinct top-level name over all the top-level names the repository's files import.
     */
    async probeImports(input: ProbeInput & { python: string | null; trackedHash: string }): Promise<C0Result> {
      return withHeartbeat(async () => {
        const volume = await toolsVolume(docker, settings, log);
        return inProbe(input, 'c0', { binds: [`${volume}:${TOOLS_DIR}:ro`] }, async (c) => {
          const tracked = (await blobs.getText(input.trackedHash)).split('\n').map((l) => l.slice(l.indexOf('\t') + 1)).filter(Boolean);
          await c.put('/tmp/envgap-c0', {
            'imports.py': IMPORTS_SCRIPT,
            'tracked.txt': tracked.join('\n') + '\n',
            // pyright ignores absolute include paths: the repository is named relative to this folder.
            // The repository's own packages resolve from its root, as when pyright runs there (upstream's probe).
            'pyrightconfig.json': JSON.stringify({ include: ['../../repo'], executionEnvironments: [{ root: '../../repo' }], exclude: ['**/.venv', '**/venv', '**/node_modules', '**/__pycache__', '**/build', '**/dist'], reportMissingImports: 'error' }),
          });
          const imports = await shell(c, 'python3 /tmp/envgap-c0/imports.py /tmp/envgap-c0/tracked.txt', input.timeoutS);
          const total = lastJsonLine<string[]>(imports.output) ?? [];
          const python = input.python ?? '/usr/bin/python3';
          const r = await shell(c, pyrightCommand(python, '/tmp/envgap-c0/pyrightconfig.json').map(shellQuote).join(' '), input.timeoutS);
          const base = { skip_reason: null, exit_code: r.exitCode, duration_s: r.durationMs / 1000, command: `pyright --pythonpath ${python}`, total: total.length };
          try {
            const missing = missingImports(r.output).filter((n) => total.includes(n));
            const missingSource = missingImports(r.output, 'reportMissingModuleSource').filter((n) => total.includes(n));
            return { ...base, status: missing.length === 0 ? 'success' : 'failure', failure_category: missing.length === 0 ? null : 'deps', error_excerpt: missing.length === 0 ? null : `missing: ${missing.join(', ')}`, missing, missing_source: missingSource };
          } catch (err) {
            // pyright itself failed: C0 is unknown, not "nothing missing" (upstream counts 0 missing here).
            return { ...base, status: 'failure', failure_category: r.timedOut ? 'timeout' : 'unknown', error_excerpt: excerpt(`${(err as Error).message}\n${r.output}`, 2000), missing: [] };
          }
        });
      });
    },

    /** C1, C3, C4: a stage's entry command in the frozen environment, with the GPUs visible as the stage says. */
    async probeEntry(input: ProbeInput & { stage: 'c1' | 'c3' | 'c4'; command: string; gpus: boolean; python: string | null }): Promise<StageResult & { outputHash: string }> {
      return withHeartbeat(() =>
        inProbe(input, input.stage, { gpus: gpuRequest(input, input.gpus, input.stage === 'c3' ? 1 : 'all'), binds: scriptsBind(input) }, async (c) => {
          const visible = input.stage === 'c1' ? ['CUDA_VISIBLE_DEVICES='] : input.stage === 'c3' ? ['CUDA_VISIBLE_DEVICES=0'] : [];
          const env = [...visible, ...interpreterEnv(input.python)];
          const { output, ...result } = await stage(c, input.command, input.timeoutS, env);
          return { ...result, outputHash: await blobs.put(output) };
        }),
      );
    },

    /** C3, C4 generic: the kernel check or the all-reduce, judged from its output (src/readiness/genericVerdict.ts). */
    async probeGeneric(input: GenericProbeInput): Promise<GenericProbeResult> {
      return withHeartbeat(() =>
        inProbe(input, `${input.stage}-generic`, { gpus: gpuRequest(input, input.gpus, input.stage === 'c3' ? 1 : 'all') }, async (c) => {
          const python = input.python ?? 'python3';
          await c.put(GENERIC_DIR, GENERIC_FILES);
          if (input.stage === 'c3') {
            const device = input.gpus ? 'cuda' : 'cpu';
            const { output, ...result } = await stage(c, kernelCheckCommand(python, device), input.timeoutS, input.gpus ? ['CUDA_VISIBLE_DEVICES=0'] : []);
            return judged(result, output, kernelVerdict({ output, exitCode: result.exit_code, timedOut: result.failure_category === 'timeout' }, device));
          }
          const nproc = input.nproc ?? (input.gpus ? await visibleGpus(c) : 2);
          if (input.gpus && nproc < 2) return { ...skipped('insufficient_hardware'), error_excerpt: `${nproc} GPU${nproc === 1 ? '' : 's'} visible: an all-reduce needs 2`, outputHash: await blobs.put(''), verdict: null };
          const backend = input.backend ?? (input.gpus ? 'nccl' : 'gloo');
          const { output, ...result } = await stage(c, allReduceCommand(python, { nproc, backend, stageTimeoutS: input.timeoutS }), input.timeoutS, ALL_REDUCE_ENV);
          return judged(result, output, allReduceVerdict({ output, exitCode: result.exit_code, timedOut: result.failure_category === 'timeout' }, { backend, worldSize: nproc }));
        }),
      );
      async function judged(result: StageResult, output: string, verdict: GenericVerdict): Promise<GenericProbeResult> {
        const run = { exitCode: result.exit_code, timedOut: result.failure_category === 'timeout', oomKilled: result.failure_category === 'oom', output };
        return { ...result, ...judgeGeneric(run, verdict), outputHash: await blobs.put(output), verdict };
      }
    },

    /**
     * The prepare stage (upstream's prepare_assets.sh): the repository's command in /repo of the frozen
     * environment, its scripts mounted, without GPUs; what it leaves is committed as the image the
     * entries run in. A failure commits nothing (preparedImage null): the entries that need the assets
     * are then skipped as prepare_failed.
     */
    async prepareAssets(input: ProbeInput & { command: string; python: string | null }): Promise<StageResult & { outputHash: string; preparedImage: string | null }> {
      return withHeartbeat(() =>
        inProbe(input, 'prepare', { binds: scriptsBind(input) }, async (c) => {
          const { output, ...result } = await stage(c, input.command, input.timeoutS, ['CUDA_VISIBLE_DEVICES=', ...interpreterEnv(input.python)]);
          const outputHash = await blobs.put(output);
          if (result.status !== 'success') return { ...result, outputHash, preparedImage: null };
          const ref = preparedImageRef(input.frozenImage);
          const colon = ref.lastIndexOf(':');
          await c.commit(ref.slice(0, colon), ref.slice(colon + 1));
          return { ...result, outputHash, preparedImage: ref };
        }),
      );
    },

    /** C2: cuda-check with the agent's interpreter: torch, then tensorflow, then jax. */
    async probeCuda(input: ProbeInput & { python: string; gpus: boolean }): Promise<StageResult & { observed: CudaObservation | null }> {
      return withHeartbeat(() =>
        inProbe(input, 'c2', { gpus: gpuRequest(input, input.gpus) }, async (c) => {
          await c.put('/tmp/envgap-c2', { 'cuda_check.py': CUDA_CHECK_SCRIPT });
          const { output, ...result } = await stage(c, `${shellQuote(input.python)} /tmp/envgap-c2/cuda_check.py`, input.timeoutS);
          const seen = lastJsonLine<CudaObservation & { errors: Record<string, string> }>(output);
          const observed = seen ? { framework: seen.framework, framework_version: seen.framework_version, cuda_available: seen.cuda_available, device_count: seen.device_count, cuda_version: seen.cuda_version } : null;
          if (result.status === 'success' && (!observed || !observed.cuda_available)) {
            return { ...result, status: 'failure', failure_category: observed?.framework ? 'runtime' : 'deps', error_excerpt: excerpt(observed?.framework ? `${observed.framework} sees no GPU` : `no framework imports: ${JSON.stringify(seen?.errors ?? {})}`, 2000), observed };
          }
          return { ...result, observed };
        }),
      );
    },

    /**
     * What the report's interpreter is (C5's ground truth), the environment's size (bytes under its
     * sys.prefix), and the GPUs of this machine (nvidia-smi, where there are any).
     */
    async probeFacts(input: ProbeInput & { python: string | null; gpus: boolean }): Promise<{ facts: InterpreterFacts | null; envSizeBytes: number | null; gpu: { name: string; driver_version: string; count: number } | null }> {
      return withHeartbeat(() =>
        inProbe(input, 'facts', { gpus: gpuRequest(input, input.gpus) }, async (c) => {
          let facts: InterpreterFacts | null = null;
          let envSizeBytes: number | null = null;
          if (input.python) {
            const q = shellQuote(input.python);
            const exec = await shell(c, `test -f ${q} && test -x ${q}`, 30);
            if (exec.exitCode !== 0) facts = { executable: false, runs: false, python_version: null, torch_version: null, torch_error: null, cuda_available: false, device_count: 0 };
            else {
              await c.put('/tmp/envgap-facts', { 'facts.py': FACTS_SCRIPT });
              const r = await shell(c, `${q} /tmp/envgap-facts/facts.py`, input.timeoutS);
              const seen = lastJsonLine<Omit<InterpreterFacts, 'executable' | 'runs'> & { prefix: string }>(r.output);
              facts = seen ? { executable: true, runs: true, python_version: seen.python_version, torch_version: seen.torch_version, torch_error: seen.torch_error, cuda_available: seen.cuda_available, device_count: seen.device_count } : { executable: true, runs: false, python_version: null, torch_version: null, torch_error: null, cuda_available: false, device_count: 0 };
              if (seen) {
                const du = await shell(c, `du -sb ${shellQuote(seen.prefix)} | cut -f1`, input.timeoutS);
                envSizeBytes = /^\d+$/.test(du.output.trim()) ? Number(du.output.trim()) : null;
              }
            }
          }
          let gpu: { name: string; driver_version: string; count: number } | null = null;
          if (input.gpus) {
            const smi = await shell(c, 'nvidia-smi --query-gpu=name,driver_version --format=csv,noheader', 60);
            const rows = smi.exitCode === 0 ? smi.output.trim().split('\n').filter(Boolean) : [];
            if (rows.length > 0) {
              const [name, driver] = rows[0]!.split(',').map((s) => s.trim());
              gpu = { name: name ?? '', driver_version: driver ?? '', count: rows.length };
            }
          }
          return { facts, envSizeBytes, gpu };
        }),
      );
    },

    /** Removes the frozen environment, and the image the prepare stage made of it, once every probe has run. */
    async removeFrozenImage(input: { frozenImage: string }): Promise<void> {
      for (const image of [preparedImageRef(input.frozenImage), input.frozenImage]) {
        try {
          await docker.getImage(image).remove({ force: true });
        } catch (err) {
          if ((err as { statusCode?: number }).statusCode !== 404) throw err;
        }
      }
    },
  };
}
