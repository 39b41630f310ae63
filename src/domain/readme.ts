import { z } from 'zod';
import { SandboxRecord } from './sandboxRecord';

/** EnConda-Bench's error taxonomy (`error_types.json`): there is no E3 or E5. */
export const ERROR_TYPES = ['E1', 'E2', 'E4', 'E6', 'E7', 'E8'] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

/** One error an agent names in a README: its type, what is wrong, and the fix it proposes. */
export const DetectedError = z.object({
  error_type: z.string(),
  error_description: z.string(),
  fix_suggestion: z.string(),
});
export type DetectedError = z.infer<typeof DetectedError>;

/** An agent's answer for one README: the errors it found, and its setup script (null where it gave none). */
export interface ReadmeAnswer {
  detected_errors: DetectedError[];
  setup_script: string | null;
}

/** One injected error of the gold answer (`README.json` / `readme.json`). */
export const GoldError = z.object({
  error_type: z.string(),
  error_description: z.string(),
  correction_candidates: z.array(z.string()).default([]),
  golden_answer: z.string(),
});
export type GoldError = z.infer<typeof GoldError>;

export const GoldAnswer = z.object({
  readme: z.string().optional(),
  repo_name: z.string().optional(),
  level: z.string().optional(),
  errors: z.array(GoldError),
});
export type GoldAnswer = z.infer<typeof GoldAnswer>;

/** One README instance of the data set, located by its own folder. */
export interface ReadmeInstanceRef {
  /** The instance's folder name, e.g. `jaraco_inflect_error_readme_1_only_E1`: its id in the data set. */
  name: string;
  /** The data set's repository folder, `error_gen_<owner>_<repo>`. */
  repoFolder: string;
  /** `<owner>_<repo>` as the folder names it (upstream's `repo_name`). */
  repo: string;
}

/** Pass@1 (EnvBench's definition): the script exits 0 and pyright then finds no missing import. */
export interface PassResult {
  status: 'pass' | 'fail' | 'skipped' | 'infra_error';
  /** Why it failed or was skipped, in words (`script exited 1`, `3 missing imports`, `no setup script`, `no repository source`). */
  reason: string | null;
  exit_code: number | null;
  timed_out: boolean;
  missing_imports: number | null;
  missing: string[];
  /** The script's run and pyright's together (EnvBench's `execution_time`), not the container's set-up. */
  duration_s: number | null;
  log_excerpt: string | null;
  /** The interpreter pyright resolved imports with: the `python` the script left on PATH (null where pyright did not run). */
  python?: string | null;
  /** The whole log as a blob (in the record). */
  log_hash?: string | null;
  /** What confined the script's container, with the limits it reached; absent where none ran, and in records from before. */
  sandbox?: SandboxRecord;
}

export const PassResultSchema = z.object({
  status: z.enum(['pass', 'fail', 'skipped', 'infra_error']),
  reason: z.string().nullable(),
  exit_code: z.number().nullable(),
  timed_out: z.boolean(),
  missing_imports: z.number().nullable(),
  missing: z.array(z.string()),
  duration_s: z.number().nullable(),
  log_excerpt: z.string().nullable(),
  /** The interpreter pyright used (the `python` on the script's PATH at its end). */
  python: z.string().nullable().optional(),
  /** The whole log (the script's output, the interpreter, pyright's report) as a blob. */
  log_hash: z.string().nullable().optional(),
  sandbox: SandboxRecord.optional(),
});

/** What the agent spent on its answer: its wall time, tokens and cost; null where it did not report them. */
export const AnswerSpent = z.object({
  duration_s: z.number().nullable(),
  tokens_in: z.number().nullable(),
  tokens_out: z.number().nullable(),
  cost_usd: z.number().nullable(),
});
export type AnswerSpent = z.infer<typeof AnswerSpent>;

/**
 * How the agent answered: `answered` (the answer parsed), `invalid_answer` (it did not: the agent's
 * failure), `failed` (its command failed or it returned nothing), `timeout` (over its time limit).
 */
export const AnswerOutcome = z.object({
  status: z.enum(['answered', 'invalid_answer', 'failed', 'timeout']),
  problem: z.string().nullable(),
  detected_errors: z.array(DetectedError),
  /** The setup script and the whole answer, as blobs (content hashes); null where there is none. */
  setup_script_hash: z.string().nullable(),
  answer_hash: z.string().nullable(),
  ...AnswerSpent.shape,
  /** An agent that worked in the repository's container: what confined it, with the limits it reached. */
  sandbox: SandboxRecord.optional(),
});
export type AnswerOutcome = z.infer<typeof AnswerOutcome>;

/** One README instance's result (docs/readme.md, "The record"); exported as JSON lines. */
export const ReadmeRecord = z.object({
  schema: z.literal('envgap.readme/v1'),
  study: z.string(),
  instance_id: z.string(),
  agent: z.string(),
  agent_kind: z.string(),
  instance: z.string(),
  repo_folder: z.string(),
  repository: z.string().nullable(),
  trial: z.number(),
  /** completed: every stage ran (whatever the agent did); error: the harness failed, see `error`. */
  status: z.enum(['completed', 'error']),
  gold: z.object({ errors: z.number(), types: z.array(z.string()), level: z.string().nullable() }).nullable(),
  answer: AnswerOutcome.nullable(),
  /** The diagnosis scored against the gold (src/metrics/readme), naming its judge. */
  score: z.record(z.string(), z.unknown()).nullable(),
  pass: PassResultSchema.nullable(),
  error: z.object({ kind: z.string(), message: z.string() }).nullable(),
});
export type ReadmeRecord = z.infer<typeof ReadmeRecord>;
