import type { ConfirmationFields } from './confirmation/types';
import type { RunCoverage } from './coverage';
import type { EnvironmentMatch, ErrorClass, InfraError, InstanceRecord, ManifestStatus } from './instance';
import type { NameList, StoredNames } from './nameList';
import type { Provenance } from './provenance';
import type { InstanceInput } from './study';

/** The record's dependency lists, which may travel through history as blob references. */
export const RECORD_LISTS = ['declared', 'declared_test', 'installed', 'traced', 'traced_build', 'traced_debian_packages', 'installed_test', 'installed_provided', 'traced_aggregated', 'traced_base'] as const;
type RecordList = (typeof RECORD_LISTS)[number];

/** An instance record as the workflow builds it: long lists still blob references (src/domain/nameList.ts). */
export type InstanceRecordDraft = Omit<InstanceRecord, RecordList | 'installed_versions'> & { [K in RecordList]?: NameList | null } & {
  /** Travels as a blob of its JSON, read back when the record is stored. */
  installed_versions?: StoredNames;
};

export interface InstanceObservations {
  /** Success of each executed iteration, in order (index = iteration). */
  outcomes: boolean[];
  firstErrorClass: ErrorClass | null;
  declared: NameList | null;
  installed: NameList | null;
  traced: NameList | null;
  tracedBuild: NameList | null;
  tracedDebianPackages: NameList | null;
  error: InfraError | null;
  /** Iterations whose answer a person wrote (a recording's `"author": "human"`). */
  humanIterations?: number[];
  /** The agent stopped answering before the budget was spent. */
  gaveUp?: boolean;
  /** The manifest D1 was read from, as found (absent, empty, invalid with its parse error, present). */
  manifest?: { status: ManifestStatus; error: string | null; testScoped: NameList };
  /** Why iteration 0 was classed Environment. */
  firstEnvironment?: EnvironmentMatch;
  /** How the final, successful iteration's program ran. */
  runKind?: 'program' | 'service';
  /** With a first iteration that timed out: silent or busy. */
  firstTimeoutKind?: 'silent' | 'busy';
  /** The final execution's provenance. */
  provenance?: Provenance;
  /** D2 with versions, as a blob, from the final execution. */
  installedVersions?: StoredNames | null;
  /** Beside D2, from the final execution: installed for the tests only, for compiling only (Java). */
  installedTest?: NameList;
  installedProvided?: NameList;
  /** Beside D3, from the final execution: its names traced through what they bring (Java's starters), and those not in D2. */
  tracedAggregated?: NameList;
  tracedBase?: NameList;
  /** Beside D3, from the final execution: the share of the project's own code its run executed. */
  coverage?: RunCoverage;
  /** Phantom confirmation of the successful instance (src/workflows/confirmPhantoms.ts), where the study asked for it. */
  confirmation?: ConfirmationFields;
}

/** The instance record (docs/record.md) from what the protocol observed. Pure, so workflows can call it. */
export function buildInstanceRecord(input: InstanceInput, o: InstanceObservations): InstanceRecordDraft {
  const depth = o.outcomes.indexOf(true);
  const status = o.error ? 'error' : depth >= 0 ? 'success' : 'failed';
  return {
    schema: 'envgap.instance/v1',
    study: input.study,
    agent: input.agent.name,
    language: input.language,
    task: input.task.id,
    trial: input.trial,
    domain: input.task.domain,
    status,
    first_attempt_success: o.outcomes[0] === true,
    repair_depth: depth >= 0 ? depth : null,
    first_error_class: o.outcomes[0] === false ? o.firstErrorClass : null,
    declared: o.declared,
    installed: o.installed,
    traced: status === 'success' ? o.traced : null,
    traced_build: status === 'success' ? o.tracedBuild : null,
    traced_debian_packages: status === 'success' ? o.tracedDebianPackages : null,
    stdlib_sufficient: null,
    iterations: o.outcomes.length,
    ...(o.humanIterations && o.humanIterations.length > 0 ? { human_iterations: o.humanIterations } : {}),
    ...(o.gaveUp ? { agent_gave_up: true } : {}),
    ...(o.firstEnvironment && o.outcomes[0] === false ? { environment: o.firstEnvironment } : {}),
    ...(o.manifest ? { manifest_status: o.manifest.status, manifest_error: o.manifest.error, declared_test: o.manifest.testScoped } : {}),
    ...(status === 'success' && o.runKind ? { run_kind: o.runKind } : {}),
    ...(o.firstTimeoutKind && o.outcomes[0] === false && o.firstErrorClass === 'Timeout' ? { timeout_kind: o.firstTimeoutKind } : {}),
    error: o.error,
    ...(o.provenance ? { provenance: o.provenance } : {}),
    ...(o.installedVersions && o.installed ? { installed_versions: o.installedVersions } : {}),
    ...(o.installed && o.installedTest ? { installed_test: o.installedTest } : {}),
    ...(o.installed && o.installedProvided ? { installed_provided: o.installedProvided } : {}),
    ...(status === 'success' && o.traced && o.tracedAggregated ? { traced_aggregated: o.tracedAggregated } : {}),
    ...(status === 'success' && o.traced && o.tracedBase ? { traced_base: o.tracedBase } : {}),
    ...(status === 'success' && o.traced && o.coverage ? { coverage: o.coverage } : {}),
    ...(status === 'success' && o.confirmation ? o.confirmation : {}),
  };
}

/**
 * A short, deterministic fingerprint of a record draft (FNV-1a of its JSON, and the JSON's length):
 * the workflow compares it with the one an execution stored, to store the record again where they
 * differ. Pure, so workflows can call it.
 */
export function recordFingerprint(draft: InstanceRecordDraft): string {
  const json = JSON.stringify(draft);
  let h = 0x811c9dc5;
  for (let i = 0; i < json.length; i++) {
    h ^= json.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `fnv1a:${h.toString(16).padStart(8, '0')}:${json.length}`;
}
