import { z } from 'zod';
import { ConfirmationDetail, Verdict } from './confirmation/schema';
import { InstalledVersions, Provenance } from './provenance';
import { RunCoverage } from './coverage';

export const LANGUAGES = ['python', 'java', 'javascript', 'cpp'] as const;
export const Language = z.enum(LANGUAGES);
export type Language = z.infer<typeof Language>;

/**
 * AgentOutput: the agent's answer was unusable (not JSON, the wrong shape, an unsafe path); the others
 * class an execution. MemoryLimit, PidsLimit and DiskLimit: a step failed at one of the container's
 * resource limits (killed for memory, forks refused, the disk full): still the agent's failures, kept
 * apart from Runtime (src/ecosystems/resourceLimits.ts). Environment: the program's run needed what the
 * machine cannot give (a host outside the package indexes, a service such as Redis, cloud credentials,
 * a model or data download): never the agent's, left out of the success rates by default (a heuristic:
 * src/ecosystems/environmentFailure.ts names the rule that fired).
 *
 * The agent's own failures in a call (docs/agents.md, "Who failed"): AgentCrash (its command exited
 * non-zero), AgentTimeout (it ran past its time limit), AgentContext (it overflowed its context),
 * AgentRefused (it refused the task), AgentBudget (it hit its token budget). Each is a failed iteration,
 * handed to Repair like any error; faults of the model endpoint are the instance's `error` instead.
 */
export const ERROR_CLASSES = [
  'SystemLib', 'FetchFail', 'MissingDep', 'Build', 'Runtime', 'Timeout', 'Other', 'AgentOutput', 'MemoryLimit', 'PidsLimit', 'DiskLimit', 'Environment',
  'AgentCrash', 'AgentTimeout', 'AgentContext', 'AgentRefused', 'AgentBudget',
] as const;
/** The classes of an agent's failed call (no project to execute). */
export const AGENT_CALL_FAILURES = ['AgentOutput', 'AgentCrash', 'AgentTimeout', 'AgentContext', 'AgentRefused', 'AgentBudget'] as const;
export type AgentCallFailure = (typeof AGENT_CALL_FAILURES)[number];
export const ErrorClass = z.enum(ERROR_CLASSES);
export type ErrorClass = z.infer<typeof ErrorClass>;

/** The manifest D1 is read from, as found: see `manifest_status` below. */
export const MANIFEST_STATUSES = ['present', 'absent', 'empty', 'invalid'] as const;
export type ManifestStatus = (typeof MANIFEST_STATUSES)[number];

/** `error` is an infrastructure fault, never the agent's failure. */
export const InstanceStatus = z.enum(['success', 'failed', 'error']);
export type InstanceStatus = z.infer<typeof InstanceStatus>;

export const InfraError = z.object({ kind: z.string(), message: z.string() });

/** Why a run was classed Environment: the heuristic rule that fired, and the host or service it named. */
export const EnvironmentMatch = z.object({ rule: z.string(), host: z.string().optional(), service: z.string().optional() });
export type EnvironmentMatch = z.infer<typeof EnvironmentMatch>;
export type InfraError = z.infer<typeof InfraError>;

export const InstanceRecord = z.object({
  schema: z.literal('envgap.instance/v1'),
  study: z.string(),
  agent: z.string(),
  language: Language,
  task: z.string(),
  trial: z.number().int().positive(),
  domain: z.string().nullable(),
  status: InstanceStatus,
  first_attempt_success: z.boolean(),
  repair_depth: z.number().int().nonnegative().nullable(),
  first_error_class: ErrorClass.nullable(),
  declared: z.array(z.string()).nullable(),
  installed: z.array(z.string()).nullable(),
  traced: z.array(z.string()).nullable(),
  traced_build: z.array(z.string()).nullable(),
  /** Debian packages owning the shared objects the run loaded (C++, through dpkg -S). */
  traced_debian_packages: z.array(z.string()).nullable().optional(),
  stdlib_sufficient: z.boolean().nullable(),
  declared_count: z.number().int().nonnegative().nullable().optional(),
  installed_count: z.number().int().nonnegative().nullable().optional(),
  iterations: z.number().int().nonnegative().optional(),
  /** Iterations a person wrote (a recording's `"author": "human"`): a human fix, not the agent's repair. */
  human_iterations: z.array(z.number().int().nonnegative()).optional(),
  /** The agent stopped answering before its budget was spent (a recording that ends after a failure). */
  agent_gave_up: z.boolean().optional(),
  /**
   * The manifest D1 was read from: absent, empty (declaring nothing), invalid (could not be parsed;
   * manifest_error says why) or present. D1 is [] in the first three cases.
   */
  manifest_status: z.enum(MANIFEST_STATUSES).optional(),
  manifest_error: z.string().nullable().optional(),
  /** The test-scoped names among `declared` (Maven `<scope>test</scope>`), never traceable in a run. */
  declared_test: z.array(z.string()).optional(),
  /** With first_error_class Environment: the rule that fired, and the host or service the error named. */
  environment: EnvironmentMatch.optional(),
  /** With status success: how the final iteration's program ran: `program` (exited 0) or `service` (still serving at its time limit, stopped). */
  run_kind: z.enum(['program', 'service']).optional(),
  /** With first_error_class Timeout: `silent` (no output, next to no CPU after the grace) or `busy`; never seen listening on a TCP port. */
  timeout_kind: z.enum(['silent', 'busy']).optional(),
  error: InfraError.nullable().optional(),
  /** Where and with what the final execution ran: image, tools, envgap, catalog, package indexes, time, worker. Absent in imported and older records. */
  provenance: Provenance.optional(),
  /** D2 with versions: name -> version (null where the artefacts give none). Absent where D2 is null, and in imported and older records. */
  installed_versions: InstalledVersions.optional(),
  /** Installed for the tests only (Maven test scope: junit, mockito...), never on the run's classpath, so kept out of `installed` (Java). */
  installed_test: z.array(z.string()).optional(),
  /** Installed for compiling only (Maven provided and system scope), not on the run's classpath, so kept out of `installed` (Java). */
  installed_provided: z.array(z.string()).optional(),
  /** The names of `traced` that the run did not load themselves but traced through what they bring (Java: starters and other jars with no class). */
  traced_aggregated: z.array(z.string()).optional(),
  /** The names of `traced` not in `installed`: loaded from what the image already had (Python's venv seeds pip, setuptools), not installed by the manifest. */
  traced_base: z.array(z.string()).optional(),
  /** With status success, beside `traced`: the share of the project's own code the final run executed (JavaScript: V8, lines; Python: coverage.py, statements; Java: JaCoCo, lines). */
  coverage: RunCoverage.optional(),
  /** Phantom confirmation (docs/confirmation.md): each declared-but-untraced name (D1's, as normalised there) -> whether the project needs it, found by removal. */
  phantom_check: z.record(z.string(), Verdict).optional(),
  /** The same for installed-but-untraced names (bloat), where the ecosystem can remove one (Maven exclusions). */
  bloat_check: z.record(z.string(), Verdict).optional(),
  /** How the confirmation went: the unchanged project's re-run, trials and their cost, how each needed name broke, names left untried. */
  confirmation: ConfirmationDetail.optional(),
});
export type InstanceRecord = z.infer<typeof InstanceRecord>;

export interface InstanceKey {
  study: string;
  agent: string;
  language: Language;
  task: string;
  trial: number;
}

export function instanceId(k: InstanceKey): string {
  return `${k.study}/${k.agent}/${k.language}/${k.task}/${k.trial}`;
}

export function parseInstanceId(id: string): InstanceKey {
  const parts = id.split('/');
  const trial = Number(parts[4]);
  const language = Language.safeParse(parts[2]);
  if (parts.length !== 5 || !Number.isInteger(trial) || trial < 1 || !language.success) {
    throw new Error(`instance id "${id}" is not <study>/<agent>/<language>/<task>/<trial>`);
  }
  return { study: parts[0], agent: parts[1], language: language.data, task: parts[3], trial };
}
