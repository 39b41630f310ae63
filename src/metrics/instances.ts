import { LANGUAGES, type InstanceRecord, type Language } from '../domain/instance';
import { withStdlibSufficiency, type StdlibAnnotation } from './stdlibSufficiency';

/** An instance record with its dependency sets built once, for the metric functions. */
export interface Instance {
  study: string;
  agent: string;
  language: Language;
  task: string;
  trial: number;
  domain: string | null;
  success: boolean;
  firstAttemptSuccess: boolean;
  repairDepth: number | null;
  firstErrorClass: InstanceRecord['first_error_class'];
  stdlibSufficient: boolean | null;
  declared: ReadonlySet<string> | null;
  installed: ReadonlySet<string> | null;
  traced: ReadonlySet<string> | null;
  /** n1 where only a size is needed: the record's declared_count, else |declared| */
  declaredCount: number | null;
  /** n2 where only a size is needed: the record's installed_count, else |installed| */
  installedCount: number | null;
  /** a record with status `error` kept as a failure (`errorsAsFailures`) */
  harnessFault?: true;
  /** phantom confirmation by removal, where the record carries it (`phantom_check`, `bloat_check`) */
  phantomCheck?: Readonly<Record<string, 'unneeded' | 'needed'>>;
  bloatCheck?: Readonly<Record<string, 'unneeded' | 'needed'>>;
}

export interface PreparedInstances {
  /** every non-error instance (without Environment failures unless counted), in canonical order (agent, language, task, trial) */
  instances: Instance[];
  excludedErrors: number;
  /** failed instances whose first error was Environment, left out (0 when they are counted) */
  excludedEnvironment: number;
}

export interface PrepareOptions {
  /** keep instances that failed for want of what the machine cannot give (Environment); default false */
  countEnvironment?: boolean;
  /** D1 without the test-scoped names (`declared_test`, Maven test scope), which a run never traces */
  excludeTestScope?: boolean;
  /**
   * count only the agent's own repairs: an instance first successful at or after an iteration a person
   * wrote (`human_iterations`) counts as never successful
   */
  excludeHumanRepairs?: boolean;
  /**
   * keep records with status `error` (harness faults) as instances that failed at every attempt, with
   * nothing installed or traced: the second denominator beside the default, where they are left out
   */
  errorsAsFailures?: boolean;
  /** the task catalog's a-priori standard-library sufficiency, used where a record leaves it null (M7) */
  stdlibAnnotation?: StdlibAnnotation;
}

/**
 * A failure that is not the agent's: the first error was classed Environment (a service, a host,
 * credentials, a download the machine cannot give: src/ecosystems/environmentFailure.ts) and the
 * instance never succeeded.
 */
export function isEnvironmentFailure(r: Pick<InstanceRecord, 'status' | 'first_error_class'>): boolean {
  return r.status === 'failed' && r.first_error_class === 'Environment';
}

const languageOrder = new Map<Language, number>(LANGUAGES.map((l, i) => [l, i]));

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareInstances(a: Instance, b: Instance): number {
  return (
    compareText(a.agent, b.agent) ||
    languageOrder.get(a.language)! - languageOrder.get(b.language)! ||
    compareText(a.task, b.task) ||
    a.trial - b.trial
  );
}

const toSet = (names: string[] | null) => (names === null ? null : new Set(names));

function toInstance(r: InstanceRecord, opts: PrepareOptions): Instance {
  const testScoped = opts.excludeTestScope ? new Set(r.declared_test ?? []) : new Set<string>();
  const declared = toSet(r.declared === null ? null : r.declared.filter((n) => !testScoped.has(n)));
  const installed = toSet(r.installed);
  const humanFixed = opts.excludeHumanRepairs === true && r.repair_depth !== null && (r.human_iterations ?? []).some((i) => i <= r.repair_depth!);
  if (r.status === 'error') return asFailure(r, declared, opts);
  return {
    ...whereFrom(r),
    success: r.status === 'success' && !humanFixed,
    firstAttemptSuccess: r.first_attempt_success && !humanFixed,
    repairDepth: humanFixed ? null : r.repair_depth,
    firstErrorClass: r.first_error_class,
    stdlibSufficient: r.stdlib_sufficient,
    declared,
    installed,
    traced: toSet(r.traced),
    declaredCount: testScoped.size > 0 ? (declared?.size ?? null) : (r.declared_count ?? declared?.size ?? null),
    installedCount: r.installed_count ?? installed?.size ?? null,
    ...(r.phantom_check ? { phantomCheck: r.phantom_check } : {}),
    ...(r.bloat_check ? { bloatCheck: r.bloat_check } : {}),
  };
}

/** Which instance a record is of: its study, agent, language, task, trial, and the task's domain. */
function whereFrom(r: InstanceRecord): Pick<Instance, 'study' | 'agent' | 'language' | 'task' | 'trial' | 'domain'> {
  return { study: r.study, agent: r.agent, language: r.language, task: r.task, trial: r.trial, domain: r.domain };
}

/** A harness fault counted as the agent's failure: never successful, at no attempt, nothing traced. */
function asFailure(r: InstanceRecord, declared: ReadonlySet<string> | null, opts: PrepareOptions): Instance {
  const testScoped = opts.excludeTestScope === true && (r.declared_test ?? []).length > 0;
  return {
    ...whereFrom(r),
    success: false,
    firstAttemptSuccess: false,
    repairDepth: null,
    firstErrorClass: r.first_error_class,
    stdlibSufficient: r.stdlib_sufficient,
    declared,
    installed: null,
    traced: null,
    declaredCount: testScoped ? (declared?.size ?? null) : (r.declared_count ?? declared?.size ?? null),
    installedCount: null,
    harnessFault: true,
  };
}

/**
 * Leaves out (and counts) records with status `error` (unless `errorsAsFailures`: then they are kept as failures, and still counted) and, unless `countEnvironment`, failed records
 * whose first error was Environment; builds each remaining instance's sets once, and sorts them
 * canonically, so every metric sees the same order whatever order the records came in (sums of
 * floating-point rates then come out bit-for-bit the same).
 */
export function prepareInstances(records: readonly InstanceRecord[], opts: PrepareOptions = {}): PreparedInstances {
  const nonError = records.filter((r) => r.status !== 'error');
  const kept = opts.errorsAsFailures === true ? records : nonError;
  const counted = opts.countEnvironment === true ? kept : kept.filter((r) => !isEnvironmentFailure(r));
  const instances = withStdlibSufficiency(counted, opts.stdlibAnnotation).map((r) => toInstance(r, opts)).sort(compareInstances);
  for (let i = 1; i < instances.length; i += 1) {
    const [a, b] = [instances[i - 1], instances[i]];
    if (compareInstances(a, b) === 0) {
      throw new Error(
        `two instance records for ${a.agent}/${a.language}/${a.task}/trial ${a.trial} ` +
          `(studies "${a.study}" and "${b.study}"); compute metrics over one record per instance`,
      );
    }
  }
  return { instances, excludedErrors: records.length - nonError.length, excludedEnvironment: kept.length - counted.length };
}

/** Groups in first-seen order; with canonically sorted input the groups come out sorted too. */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

export function languagesOf(instances: readonly Instance[]): Language[] {
  const present = new Set(instances.map((i) => i.language));
  return LANGUAGES.filter((l) => present.has(l));
}

/** Distinct names in code-unit order (locale-independent, so the output order is stable). */
export function sortedUnique(names: Iterable<string>): string[] {
  return [...new Set(names)].sort(compareText);
}

export function agentsOf(instances: readonly Instance[]): string[] {
  return sortedUnique(instances.map((i) => i.agent));
}
