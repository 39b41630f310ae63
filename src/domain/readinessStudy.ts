import type { AgentSpec } from './agentSpec';
import type { Support } from './readiness';
import type { SandboxLimits } from './sandboxLimits';

/** Where a repository comes from: a local folder, an archive (.tar, .tar.gz, .tgz), or a git URL at a commit (cloned by the worker). */
export type RepoSource = { kind: 'folder'; path: string } | { kind: 'archive'; path: string } | { kind: 'git'; url: string; commit: string };

/** The commands that run a repository's stages, as its benchmark scripts would. */
export interface RepoEntries {
  cpu?: string;
  single_gpu?: string;
  multi_gpu?: string;
}

/**
 * Where a repository's hidden scripts folder (`RepoSpec.scripts`) is mounted, read-only, in its probe
 * containers (the prepare stage, C1, C3, C4); the agent's session container never has it.
 */
export const REPO_SCRIPTS_DIR = '/opt/envgap/scripts';

export interface RepoSpec {
  id: string;
  source: RepoSource;
  supports: Support[];
  entry: RepoEntries;
  /** A probe's time limit, per stage (C0 pyright, C1..C4 the entries, cuda-check; the prepare stage). */
  stageTimeoutS: number;
  /** A folder on the worker's machine (absolute), mounted at REPO_SCRIPTS_DIR for the commands that run its scripts. */
  scripts?: string;
  /**
   * Run in /repo of the frozen environment before the entries, with the scripts mounted (upstream's
   * prepare_assets.sh: datasets, model weights); what it writes under /repo is there when each entry runs.
   */
  prepare?: string;
}

/** What bounds an agent's session; a session over one ends as `timeout`, the agent's result. */
export interface SessionBudget {
  wallS: number;
  steps: number;
  /** null: no token budget (a replay agent spends none). */
  tokens: number | null;
}

/**
 * `required`: GPU stages wait for a GPU worker; `auto`: they run where a GPU worker polled when the
 * study started (the CLI checks and puts the answer here, so the workflow stays deterministic), else
 * they are skipped as no_gpu_worker; `off`: skipped.
 */
export type GpuMode = 'required' | 'auto' | 'off';

export interface ReadinessStudyInput {
  name: string;
  protocol: 'readiness';
  agents: AgentSpec[];
  repos: RepoSpec[];
  trials: number;
  concurrency: number;
  budget: SessionBudget;
  gpu: { mode: GpuMode; workerAvailable: boolean };
  /** `gpu_share: true`: instances on one worker may hold the same GPUs at once (absent: each GPU leased to one instance). */
  gpuShare?: boolean;
  /** Each container's memory and CPU limits (as `limits`, where it is given). */
  memoryMb: number;
  cpus: number;
  /** Every container's sandbox limits (src/domain/sandboxLimits.ts); absent in studies started before they were carried. */
  limits?: SandboxLimits;
}

export interface ReadinessInstanceInput {
  instanceId: string;
  study: string;
  agent: AgentSpec;
  repo: RepoSpec;
  trial: number;
  budget: SessionBudget;
  /** Whether this instance's GPU stages run (on a GPU worker), and if not, why not. */
  gpu: { run: true } | { run: false; skipReason: 'no_gpu_worker' | 'gpu_off' };
  /** As the study's `gpuShare`: the session's and the probes' GPU leases may overlap other instances'. */
  gpuShare?: boolean;
  memoryMb: number;
  cpus: number;
  limits?: SandboxLimits;
}

export function readinessInstanceId(study: string, agent: string, repo: string, trial: number): string {
  return `${study}/${agent}/${repo}/${trial}`;
}

export function expandReadinessStudy(s: ReadinessStudyInput): ReadinessInstanceInput[] {
  const out: ReadinessInstanceInput[] = [];
  for (const agent of s.agents)
    for (const repo of s.repos)
      for (let trial = 1; trial <= s.trials; trial++) {
        const gpu: ReadinessInstanceInput['gpu'] =
          s.gpu.mode === 'off' ? { run: false, skipReason: 'gpu_off' } : s.gpu.mode === 'required' || s.gpu.workerAvailable ? { run: true } : { run: false, skipReason: 'no_gpu_worker' };
        out.push({ instanceId: readinessInstanceId(s.name, agent.name, repo.id, trial), study: s.name, agent, repo, trial, budget: s.budget, gpu, ...(s.gpuShare ? { gpuShare: true } : {}), memoryMb: s.memoryMb, cpus: s.cpus, ...(s.limits ? { limits: s.limits } : {}) });
      }
  return out;
}
