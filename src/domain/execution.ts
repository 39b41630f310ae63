import type { NameList, StoredNames } from './nameList';
import type { Provenance } from './provenance';
import type { EnvironmentMatch, ErrorClass, ManifestStatus } from './instance';
import type { RunSpec } from './runSpec';
import type { RunCoverage } from './coverage';

export type ExecutionStep = 'setup' | 'system' | 'install' | 'configure' | 'build' | 'run';

/**
 * Hashes of what one execution left behind, stored in the blob table, by name: `log` always; per
 * ecosystem the outputs its extraction reads (the `<LANG>_ARTEFACTS` of src/ecosystems/<language>/ecosystem.ts).
 */
export type ExecutionArtefacts = Record<string, string | null> & { log: string };

/** What one execution of a project observed: the outcome the workflow sees and the database keeps. */
export interface ExecutionOutcome {
  success: boolean;
  failedStep: ExecutionStep | null;
  errorClass: ErrorClass | null;
  errorHash: string | null;
  exitCode: number | null;
  artefacts: ExecutionArtefacts;
  /** Milliseconds per step; `container` is creating, copying into and removing the container. */
  durations: Record<string, number>;
  /** What confined the container (docs/ecosystems.md, "Sandbox"); absent in results from before it was recorded. */
  sandbox?: ExecutionSandbox;
  /** The program the runner chose to run and, in one line, why (docs/ecosystems.md, "Entry points"); absent where no entry was reached or in results from before it was recorded. */
  entry?: { command: string; reason: string };
  /** With errorClass Environment: the rule that fired, and the host or service named. */
  environment?: EnvironmentMatch;
  /** With success: `service` (still running and listening on a TCP port at the time limit; docs/ecosystems.md, "Services") or `program` (exited 0). Absent in results from before it was recorded: a program. */
  runKind?: 'program' | 'service';
  /** How the program was run, where the iteration said (.replay.json's `run`, or envgap.run.json): arguments, stdin, env. */
  runSpec?: RunSpec;
  /** With errorClass Timeout of the run: `silent` (no output, next to no CPU since the grace) or `busy`, never seen listening. */
  timeoutKind?: 'silent' | 'busy';
  /** The share of the project's own code the run executed (JavaScript: V8; Python: coverage.py; Java: JaCoCo; C++: gcov, from a separate instrumented build and run); absent where not measured, and in results from before. */
  coverage?: RunCoverage;
  /**
   * D2 (where the install ran) and D3 with D3-build (where the run succeeded), extracted by the
   * execution from its artefacts in memory (the one way the workflow gets them); in the workflow's
   * history only, not in the stored execution. Absent where the run yields none.
   */
  layers?: LayersResult;
  /** D1 of the project, where the execution was asked for it; in the workflow's history only, like `layers`. */
  declared?: DeclaredResult;
  /** D2 with versions (name -> version) as a blob of its JSON, beside `layers` and like it in history only; absent where not read, and in histories from before. */
  installedVersions?: StoredNames;
  /** The image, tools, envgap build, catalog, package indexes, time and worker of this execution (docs/record.md, "Provenance"). Absent in results from before. */
  provenance?: Provenance;
  /** This execution ended its instance and stored the instance's record with its own (the record's fingerprint); in history only, like `layers`. */
  recorded?: { fingerprint: string };
}

/** D1 as the workflow needs it: the names only (bounded), not the parser's whole account. */
export interface DeclaredResult {
  names: NameList;
  /** Absent in histories recorded before it existed. */
  manifestStatus?: ManifestStatus;
  /** The parse error of an `invalid` manifest, capped. */
  problem?: string | null;
  /** The test-scoped names among `names` (Java). */
  testScoped?: NameList;
}

/** The final layers as they travel into workflow history: each list bounded (a long one as a blob reference). */
export interface LayersResult {
  installed: NameList | null;
  traced: NameList | null;
  tracedDebianPackages: NameList | null;
  tracedBuild: NameList | null;
  /** With D2: names installed for the tests only (Maven test scope), kept out of it; absent in histories from before, and where the ecosystem keeps none apart. */
  installedTest?: NameList;
  /** With D2: names installed for compiling only (Maven provided and system scope), kept out of it; absent like installedTest. */
  installedProvided?: NameList;
  /** With D3: the names in it because what they bring was traced (Java's starters); absent where not told. */
  tracedAggregated?: NameList;
  /** With D3 and D2: the names of D3 not in D2; absent where D3 and D2 name things differently, and in histories from before. */
  tracedBase?: NameList;
}

export interface ExecutionSandbox {
  /** The Docker network the container was on, and the firewall policy of that network, in one line. */
  network: string;
  policy: string;
  disk_mb: number;
  /** `layer-fs`: a file system of disk_mb under the writable layer; `watchdog`: polled and killed past disk_mb. */
  disk: 'layer-fs' | 'watchdog' | 'none';
  /** `read-only-during-run`: the shared download caches are writable in the install steps only; `read-only`: never; `none`: not mounted. */
  caches: 'read-only-during-run' | 'read-only' | 'none' | 'writable';
}

