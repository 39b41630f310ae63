import type { ProjectFiles } from '../domain/files';
import type { ErrorClass, Language } from '../domain/instance';
import type { PurlType } from './purlType';
import { parseStraceOpenedFiles } from './strace';

/**
 * What envgap knows about one language, in one record: its manifest and D1 parser, the artefacts its
 * runner stores (a string-literal union `A`), the D2/D3/D3-build extractions from those artefacts,
 * the failure classifier and the runtime image. Pure: no I/O. The runner that executes a project
 * and gathers the artefacts lives in src/activities/runners/<language>.ts, typed by the same `A`.
 * Every record is listed in ECOSYSTEMS (./registry).
 */
export interface Ecosystem<L extends Language, A extends string, S extends string> {
  language: L;
  /** The language's name in prompts, tables and the report ('C++'). */
  displayName: string;
  /** The package URL type of its dependencies in an SBOM (https://github.com/package-url/purl-spec). */
  purlType: PurlType;
  /** The file the dependency manifest lives in, at the top of a project (as the task prompts name it). */
  manifestFile: string;
  /** D1 of one manifest text; throws a ManifestError where it declares nothing readable. */
  parseManifest(text: string, options: ManifestOptions): ParsedManifest;
  /** Every artefact the runner may store, by name; the layers below read only these. */
  artefacts: readonly A[];
  /** Resolve(Mk) -> D2. `readsProject`: it needs the project's files too (else given `{}`). */
  installed: Layer<A, [files: ProjectFiles], string[]> & { readsProject: boolean };
  /** Trace(Ck) -> D3. */
  traced: Layer<A, [], string[]>;
  /** The Debian packages of the shared objects the run loaded; null where the ecosystem does not ask dpkg. */
  tracedDebianPackages: Layer<A, [], string[] | null> | null;
  /** D3-build, given D2; null where the ecosystem has no build step. */
  tracedBuild: Layer<A, [installed: string[]], string[]> | null;
  /** What the package manager installed that is kept out of D2, never being on the run's path (Java: test, provided scope); absent where nothing is. */
  installedApart?: Layer<A, [], InstalledApart>;
  /**
   * Names of D2 counted as traced because what they bring was traced (Java: starters, jars with no
   * class), given the run's own D3 and D2; null where the execution recorded nothing to tell them by.
   * They join D3 and are listed apart in the record (`traced_aggregated`). Absent where none can be.
   */
  tracedAggregated?: Layer<A, [traced: string[], installed: string[]], string[] | null>;
  /** Names of D3 not in D2: what the run loaded that the install did not bring (`traced_base`). Absent where D3 and D2 name things differently (C++). */
  tracedBase?: Layer<A, [traced: string[], installed: string[]], string[]>;
  /** The class of a failed step's output. */
  classifyFailure(failure: StepFailure<S>): ErrorClass;
  /** What the runtime image adds to the common recipe (src/infra/recipes.ts): Debian packages, then Dockerfile lines. */
  image: { packages: readonly string[]; setup: string };
  /** Its package manager's download caches, CA bundle and mirror settings, as data that src/infra applies. */
  packageManager: PackageManager;
  /** The static baseline agent's tables (src/agents/static.ts). */
  staticBaseline: StaticBaseline;
}

/**
 * A package manager as data: src/infra mounts the caches (src/infra/caches.ts), puts the CA variables
 * into every runtime image (src/infra/recipes.ts) and applies the mirror settings (src/infra/mirrors.ts).
 */
export interface PackageManager {
  /** Its download caches: a Docker volume shared by all containers, and where it is mounted. */
  caches: readonly { volume: string; path: string }[];
  /** The environment variables through which it, and the tools it runs, read a CA bundle (besides OpenSSL's SSL_CERT_FILE). */
  caBundleEnv: readonly string[];
  /** What points it at the configured mirror, wheelhouse or registry: environment, binds and files in the container. */
  mirror(settings: MirrorSettings): ContainerConfig;
}

/** The mirror settings (ENVGAP_PIP_INDEX_URL, ENVGAP_PIP_FIND_LINKS, ENVGAP_NPM_REGISTRY, ENVGAP_MAVEN_MIRROR). */
export interface MirrorSettings {
  pipIndexUrl?: string;
  pipFindLinks?: string;
  npmRegistry?: string;
  mavenMirror?: string;
}

export interface ContainerConfig {
  env: string[];
  binds: string[];
  /** Files to place in the container before the runner starts: absolute path -> content. */
  files: Record<string, string>;
}

/**
 * The static baseline's knowledge of one language: which files it replaces, how it infers a manifest
 * from the code's imports (Gen), and how it reads the missing dependency from an error (Repair).
 */
export interface StaticBaseline {
  /** The files the runner reads as the manifest; the static agent replaces them. */
  manifestFiles: readonly string[];
  /** The manifest files for `code` (the project less `manifestFiles`); `source` is the whole recorded project. */
  infer(code: ProjectFiles, source: ProjectFiles): ProjectFiles;
  /** The project with the dependency the error names added to its manifest; null when the error names nothing the tables map or the manifest has it. */
  repair(previous: ProjectFiles, errorTail: string): ProjectFiles | null;
}

/** Names installed but kept out of D2, by why. */
export interface InstalledApart {
  /** Only for the tests (Maven test scope). */
  test: string[];
  /** Only for compiling (Maven provided and system scope). */
  provided: string[];
}

/** Any ecosystem record, whatever its language and artefacts. */
export type AnyEcosystem = Ecosystem<Language, string, string>;

export interface StepFailure<S extends string> {
  step: S;
  exitCode: number | null;
  timedOut: boolean;
  /** stdout and stderr together, as the step printed them. */
  output: string;
}

export interface ManifestOptions {
  fileName: string;
  /** Reads a file the manifest includes (`-r`, CMake include()), by path relative to the project; undefined where absent. */
  readInclude: (path: string) => string | undefined;
}

/** One declared dependency as `envgap parse-manifest` prints it: its name, then the ecosystem's own fields. */
export type ManifestDependencyOutput = { name: string } & Record<string, unknown>;

export interface ParsedManifest {
  dependencies: ManifestDependencyOutput[];
  warnings: string[];
}

/** The raw artefact texts of one execution, by the names its runner gave them (absent or null where not recorded). */
export type ArtefactTexts<A extends string = string> = { readonly [K in A]?: string | null };

export class MissingArtefactError extends Error {}

/** The artefacts one layer may read; asking for another name is a compile error, and at run time an Error. */
export interface Artefacts<R extends string> {
  /** The text, or null where the execution recorded none. */
  get(name: R): string | null;
  /** The text; a MissingArtefactError where the execution recorded none. */
  need(name: R): string;
  /** The absolute paths the traced commands of these strace artefacts opened (an absent trace opened nothing). */
  opened(...names: R[]): string[];
}

/** One extraction: the artefacts it reads, and how it reads them. */
export interface Layer<R extends string, Args extends unknown[], Out> {
  reads: readonly R[];
  extract(t: Artefacts<R>, ...args: Args): Out;
}

/**
 * A layer typed by what it reads: `layer(['runTrace', 'packageIndex'], (t) => ...)` gives `t` exactly
 * those names, and the record it goes into checks that they are among the ecosystem's artefacts.
 */
export function layer<R extends string, Args extends unknown[], Out>(reads: readonly R[], extract: (t: Artefacts<R>, ...args: Args) => Out): Layer<R, Args, Out> {
  return { reads, extract };
}

/** The reader a layer is given over raw texts: only its declared names can be read. */
export function artefactsFor<R extends string>(reads: readonly R[], texts: ArtefactTexts<string>): Artefacts<R> {
  const allowed = new Set<string>(reads);
  const get = (name: R): string | null => {
    if (!allowed.has(name)) throw new Error(`a layer read the artefact "${name}", which it does not declare (it reads ${reads.join(', ') || 'none'})`);
    return texts[name] ?? null;
  };
  const need = (name: R): string => {
    const v = get(name);
    if (v == null) throw new MissingArtefactError(`the execution recorded no "${name}"`);
    return v;
  };
  return { get, need, opened: (...names) => names.flatMap((n) => parseStraceOpenedFiles(get(n) ?? '')) };
}

/** Runs a layer over raw texts. */
export function extractLayer<R extends string, Args extends unknown[], Out>(l: Layer<R, Args, Out>, texts: ArtefactTexts<string>, ...args: Args): Out {
  return l.extract(artefactsFor(l.reads, texts), ...args);
}
