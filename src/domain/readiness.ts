import { z } from 'zod';
import { TOKEN_SPEND } from './tokenSpend';
import { SandboxRecord } from './sandboxRecord';
import { SetupPrecision } from './setupPrecision';

/**
 * The research readiness pyramid (ResearchEnvBench; docs/readiness.md): an agent sets up an ML
 * repository inside a container, then hidden probes test the frozen environment level by level.
 */
export const READINESS_STAGES = ['c0', 'c1', 'c2', 'c3', 'c4', 'c5'] as const;
export type ReadinessStage = (typeof READINESS_STAGES)[number];

/** What a repository supports (upstream's scripts_repos_test_categories.csv): which of C1, C3, C4 apply. */
export const SUPPORTS = ['cpu', 'single_gpu', 'multi_gpu'] as const;
export type Support = (typeof SUPPORTS)[number];

/** Upstream's failure categories, kept as they are. */
export const FAILURE_CATEGORIES = ['deps', 'runtime', 'timeout', 'entrypoint_not_found', 'missing_report', 'invalid_json', 'data', 'oom', 'insufficient_hardware', 'unknown'] as const;
export type FailureCategory = (typeof FAILURE_CATEGORIES)[number];

/**
 * Why a stage did not run: `not_applicable` (the repository does not support it), `no_entry` (no
 * command given for it), `no_gpu_worker` (gpu: auto and no GPU worker polled at start, or gpu: off),
 * `insufficient_hardware` (fewer GPUs than the stage needs; upstream counts it as a failure),
 * `session_failed` (no environment to probe), `prepare_failed` (the repository's command needs the
 * assets its prepare stage did not make; the record's `prepare` says why).
 */
export const SKIP_REASONS = ['not_applicable', 'no_entry', 'no_gpu_worker', 'gpu_off', 'insufficient_hardware', 'session_failed', 'prepare_failed'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export const StageStatus = z.enum(['success', 'failure', 'skipped']);

/** One probe's result, as upstream's build_output/<stage>/results.json has it. */
export const StageResult = z.object({
  status: StageStatus,
  skip_reason: z.string().nullable(),
  failure_category: z.enum(FAILURE_CATEGORIES).nullable(),
  exit_code: z.number().int().nullable(),
  error_excerpt: z.string().nullable(),
  duration_s: z.number().nonnegative().nullable(),
  /** The command the probe ran, where it ran one. */
  command: z.string().nullable().optional(),
});
export type StageResult = z.infer<typeof StageResult>;

/** C0: pyright reportMissingImports, counted by distinct top-level module name. */
export const C0Result = StageResult.extend({
  /** Distinct top-level names of all the repository's imports (the denominator). */
  total: z.number().int().nonnegative(),
  /** Distinct top-level names pyright reported missing (reportMissingImports), sorted. */
  missing: z.array(z.string()),
  /**
   * Distinct top-level names pyright resolved only to the stubs it bundles (reportMissingModuleSource:
   * `import tqdm` with tqdm not installed). Not in upstream's C0, which counts only missing imports.
   */
  missing_source: z.array(z.string()).optional(),
});
export type C0Result = z.infer<typeof C0Result>;

/** What cuda-check observed (C2): torch, then tensorflow, then jax. */
export const CudaObservation = z.object({
  framework: z.enum(['torch', 'tensorflow', 'jax']).nullable(),
  framework_version: z.string().nullable(),
  cuda_available: z.boolean(),
  device_count: z.number().int().nonnegative(),
  cuda_version: z.string().nullable(),
});
export type CudaObservation = z.infer<typeof CudaObservation>;

export const C2Result = StageResult.extend({ observed: CudaObservation.nullable() });

/**
 * What a generic probe ran and saw, besides the repository's own command (src/readiness/genericVerdict.ts):
 * `problem` says why it is not ok (timeout, crashed: no verdict printed, no_framework, no_device, error:
 * the framework raised, mismatch: the device's matmul differs from the CPU's, wrong_sum, wrong_world_size).
 */
export const GENERIC_PROBLEMS = ['timeout', 'crashed', 'no_framework', 'no_device', 'error', 'mismatch', 'wrong_sum', 'wrong_world_size'] as const;

/** C3 generic: a matmul on one device against the same matmul on the CPU. */
export const GenericKernelVerdict = z.object({
  probe: z.literal('kernel'),
  ok: z.boolean(),
  problem: z.enum(GENERIC_PROBLEMS).nullable(),
  framework: z.enum(['torch', 'tensorflow', 'jax']).nullable(),
  framework_version: z.string().nullable(),
  device: z.enum(['cuda', 'cpu']),
  device_name: z.string().nullable(),
  /** The matrices are size x size, float32. */
  size: z.number().int().positive().nullable(),
  max_abs_error: z.number().nullable(),
  /** ok when max_abs_error <= tolerance * max(1, the largest |value| of the CPU's result). */
  tolerance: z.number().nullable(),
  scale: z.number().nullable(),
  timings_s: z.record(z.string(), z.number()),
  error: z.string().nullable(),
});
export type GenericKernelVerdict = z.infer<typeof GenericKernelVerdict>;

/** C4 generic: an all-reduce (sum) over every rank of a torchrun, each rank contributing rank + 1. */
export const GenericAllReduceVerdict = z.object({
  probe: z.literal('all_reduce'),
  ok: z.boolean(),
  problem: z.enum(GENERIC_PROBLEMS).nullable(),
  backend: z.enum(['nccl', 'gloo']),
  /** The world size asked for (torchrun's --nproc_per_node) and the one the ranks saw. */
  world_size: z.number().int().positive(),
  seen_world_size: z.number().int().nullable(),
  expected: z.number(),
  got: z.number().nullable(),
  /** Elements of rank 0's result that were not `expected`; ranks whose own result was right. */
  mismatched_elements: z.number().int().nullable(),
  ranks_ok: z.number().int().nullable(),
  framework_version: z.string().nullable(),
  nccl_version: z.string().nullable(),
  device_name: z.string().nullable(),
  /** /dev/shm's size in the container, which NCCL needs (limits.shm_mb). */
  shm_bytes: z.number().nullable(),
  timings_s: z.record(z.string(), z.number()),
  error: z.string().nullable(),
  /** A likely cause the output points at (/dev/shm too small for NCCL), for a person. */
  hint: z.string().nullable(),
});
export type GenericAllReduceVerdict = z.infer<typeof GenericAllReduceVerdict>;

export const GenericVerdict = z.discriminatedUnion('probe', [GenericKernelVerdict, GenericAllReduceVerdict]);
export type GenericVerdict = z.infer<typeof GenericVerdict>;

/**
 * C3 and C4: the repository's command, the generic probe, or both. `decided_by` (absent in records from
 * before the generic probes): `repository` where only the repository's command ran, `generic` where
 * only the generic probe did (the repository gives no command for the stage), `both` where both ran:
 * the stage succeeds only when both did, and its failure fields are those of the first that failed,
 * the generic probe first (a kernel or all-reduce that fails explains the entry that fails with it).
 * `generic` is that probe's verdict.
 */
export const GpuStageResult = StageResult.extend({
  decided_by: z.enum(['generic', 'repository', 'both']).optional(),
  generic: GenericVerdict.nullable().optional(),
});
export type GpuStageResult = z.infer<typeof GpuStageResult>;

/** The agent's report.json, as upstream defines its 9 keys (all optional here: an absent key is a finding). */
export const AgentReport = z.object({
  python_path: z.string().nullable().optional(),
  python_version: z.string().nullable().optional(),
  torch_version: z.string().nullable().optional(),
  cuda_available: z.boolean().nullable().optional(),
  gpu_count: z.number().int().nullable().optional(),
  ddp_expected_ok: z.boolean().nullable().optional(),
  env_tool: z.string().nullable().optional(),
  env_name: z.string().nullable().optional(),
  notes: z.string().nullable().optional(),
});
export type AgentReport = z.infer<typeof AgentReport>;

/** C5: the report audited against what the probes observed; each hallucination names what was wrong. */
export const C5Result = StageResult.extend({
  path: z.number().int().nonnegative(),
  version: z.number().int().nonnegative(),
  capability: z.number().int().nonnegative(),
  findings: z.array(z.object({ kind: z.enum(['path', 'version', 'capability']), field: z.string(), claimed: z.unknown(), observed: z.unknown() })),
});
export type C5Result = z.infer<typeof C5Result>;

/** How the agent's session in the container ended. `timeout`: over a budget (wall, steps, tokens): the agent's result. */
export const SessionOutcome = z.object({
  status: z.enum(['finished', 'timeout', 'failed']),
  budget_exceeded: z.enum(['wall', 'steps', 'tokens']).nullable(),
  wall_s: z.number().nonnegative(),
  steps: z.number().int().nonnegative(),
  ...TOKEN_SPEND,
  /** Times the session resumed at its last completed step after a worker died (its container survived). */
  resumed: z.number().int().nonnegative(),
  /** Times it restarted from a fresh container (the container was lost). */
  restarted: z.number().int().nonnegative(),
  message: z.string().nullable(),
  /** What confined the session's container (the probes' had the same limits), with the limits it reached; absent in records from before. */
  sandbox: SandboxRecord.optional(),
});
export type SessionOutcome = z.infer<typeof SessionOutcome>;

/** A tracked file of the repository the agent changed (ResearchEnvBench forbids it). */
export const TrackedFileViolation = z.object({ path: z.string(), change: z.enum(['modified', 'deleted']) });

export const ReadinessRecord = z.object({
  schema: z.literal('envgap.readiness/v1'),
  study: z.string(),
  agent: z.string(),
  repo: z.string(),
  trial: z.number().int().positive(),
  supports: z.array(z.enum(SUPPORTS)),
  /** `error`: a harness fault (recorded in `error`), never the agent's; `completed`: the pyramid ran. */
  status: z.enum(['completed', 'error']),
  session: SessionOutcome.nullable(),
  report: AgentReport.nullable(),
  /** Why report.json could not be used: missing_report or invalid_json (with the parse error). */
  report_problem: z.string().nullable(),
  violations: z.array(TrackedFileViolation),
  /** The prepare stage (upstream's prepare_assets.sh), where the repository has one; absent otherwise. */
  prepare: StageResult.optional(),
  stages: z.object({
    c0: C0Result,
    c1: StageResult,
    c2: C2Result,
    c3: GpuStageResult,
    c4: GpuStageResult,
    c5: C5Result,
  }),
  /** Bytes under the interpreter's sys.prefix. */
  env_size_bytes: z.number().int().nonnegative().nullable(),
  /** The session's wall time. */
  time_to_ready_s: z.number().nonnegative().nullable(),
  gpu: z.object({ name: z.string(), driver_version: z.string(), count: z.number().int().nonnegative() }).nullable(),
  error: z.object({ kind: z.string(), message: z.string() }).nullable(),
  /** What the agent installed and the repository's commands used (docs/readiness.md, "Setup precision"); absent where not measured. */
  setup_precision: SetupPrecision.optional(),
  /** Set by `envgap import researchenvbench`: fields of upstream's files that its own scoring reads and ours does not. */
  upstream: z.record(z.string(), z.unknown()).optional(),
});
export type ReadinessRecord = z.infer<typeof ReadinessRecord>;
