import { ApplicationFailure } from '@temporalio/activity';
import type { BlobStore } from '../db/blobs';
import type { ProjectFiles } from '../domain/files';
import type { Language } from '../domain/instance';
import { boundNames, isStoredNames, type NameList } from '../domain/nameList';
import { capMessage } from '../text/excerpt';
import { declaredDependencies } from '../ecosystems/declared';
import { extractLayer, MissingArtefactError, type AnyEcosystem, type ArtefactTexts } from '../ecosystems/ecosystem';
import { finalLayerReads, finalLayers, type FinalLayers } from '../ecosystems/finalLayers';
import { ECOSYSTEMS } from '../ecosystems/registry';
import type { DeclaredInput, DeclaredResult, ExecutionArtefacts, ExtractInput, LayersInput, LayersResult } from './types';

const ecosystemOf = (language: Language): AnyEcosystem => ECOSYSTEMS[language];

/** Names capped, and a long list stored as a blob: what returns from an activity enters workflow history. */
export async function storeBounded(blobs: BlobStore, list: string[]): Promise<NameList> {
  const b = boundNames(list);
  return b.inline ? b.names : { blob: await blobs.putJson(b.names), count: b.names.length };
}

/** The final layers as they travel into history: each list bounded. */
export async function storeLayers(blobs: BlobStore, l: FinalLayers): Promise<LayersResult> {
  const or = (list: string[] | null) => (list === null ? Promise.resolve(null) : storeBounded(blobs, list));
  const [installed, traced, tracedDebianPackages, tracedBuild] = await Promise.all([or(l.installed), or(l.traced), or(l.debianPackages), or(l.tracedBuild)]);
  return { installed, traced, tracedDebianPackages, tracedBuild };
}

/** ParseManifest(M0) -> D1, as it travels into history: the names bounded, the parse error capped. */
export async function storeDeclared(blobs: BlobStore, language: Language, files: ProjectFiles): Promise<DeclaredResult> {
  const declared = declaredDependencies(language, files);
  const [names, testScoped] = await Promise.all([storeBounded(blobs, declared.names), storeBounded(blobs, declared.testScoped)]);
  return { names, manifestStatus: declared.manifestStatus, problem: declared.problem === null ? null : capMessage(declared.problem), testScoped };
}

export function createExtractActivities({ blobs }: { blobs: BlobStore }) {
  /** Loads (and unzips) only the artefacts a layer reads. */
  async function texts(artefacts: ExecutionArtefacts, names: readonly string[]): Promise<ArtefactTexts> {
    const entries = await Promise.all(names.map(async (name) => [name, artefacts[name] ? await blobs.getText(artefacts[name]!) : null] as const));
    return Object.fromEntries(entries);
  }

  /** A layer that cannot be extracted from what was recorded will not become extractable on retry. */
  async function extract<T>(f: () => T): Promise<T> {
    try {
      return f();
    } catch (err) {
      if (err instanceof MissingArtefactError) throw ApplicationFailure.nonRetryable(err.message, 'MissingArtefact');
      throw err;
    }
  }

  const bounded = (list: string[]) => storeBounded(blobs, list);

  const names = (list: NameList): Promise<string[]> => (isStoredNames(list) ? blobs.getJson<string[]>(list.blob) : Promise.resolve(list));

  /** D2: what the package manager put into the clean environment, unbounded. */
  async function installedNames(input: ExtractInput): Promise<string[]> {
    const { installed } = ecosystemOf(input.language);
    // Only a layer that reads the manifest again (C++: its D2 starts from the final D1) loads the project.
    const [t, files] = await Promise.all([
      texts(input.artefacts, installed.reads),
      installed.readsProject ? blobs.getJson<ProjectFiles>(input.filesHash) : {},
    ]);
    return extract(() => extractLayer(installed, t, files));
  }

  async function tracedNames(input: ExtractInput): Promise<{ names: string[]; debianPackages: string[] | null }> {
    const { traced, tracedDebianPackages } = ecosystemOf(input.language);
    const t = await texts(input.artefacts, [...new Set([...traced.reads, ...(tracedDebianPackages?.reads ?? [])])]);
    return extract(() => ({ names: extractLayer(traced, t), debianPackages: tracedDebianPackages ? extractLayer(tracedDebianPackages, t) : null }));
  }

  async function tracedBuildNames(input: ExtractInput, installed: string[]): Promise<string[] | null> {
    const { tracedBuild } = ecosystemOf(input.language);
    if (!tracedBuild) return null;
    const t = await texts(input.artefacts, tracedBuild.reads);
    return extract(() => extractLayer(tracedBuild, t, installed));
  }

  const boundedOrNull = (list: string[] | null): Promise<NameList | null> => (list === null ? Promise.resolve(null) : bounded(list));

  return {
    /** ParseManifest(M0) -> D1. A manifest that cannot be parsed declares nothing. */
    async declaredDependencies(input: DeclaredInput): Promise<DeclaredResult> {
      return storeDeclared(blobs, input.language, await blobs.getJson<ProjectFiles>(input.filesHash));
    },

    /**
     * Resolve(Mk) -> D2 and Trace(Ck) -> D3 with D3-build, from the final execution's artefacts, in one
     * local activity: one round trip of the workflow instead of three (README, "Benchmarks": the harness's share).
     */
    async extractLayers(input: LayersInput): Promise<LayersResult> {
      const want = { installed: input.installed, traced: input.traced };
      const reads = finalLayerReads(input.language, want);
      const [t, files] = await Promise.all([texts(input.artefacts, reads.artefacts), reads.project ? blobs.getJson<ProjectFiles>(input.filesHash) : {}]);
      return storeLayers(blobs, await extract(() => finalLayers(input.language, t, files, want)));
    },

    // The three below are the same layers one by one, for instances whose history began before extractLayers.

    /** Resolve(Mk) -> D2. */
    async installedDependencies(input: ExtractInput): Promise<NameList> {
      return bounded(await installedNames(input));
    },

    /** Trace(Ck) -> D3, with the Debian packages of the shared objects it loaded, where dpkg was asked (C++). */
    async tracedDependencies(input: ExtractInput): Promise<{ names: NameList; debianPackages: NameList | null }> {
      const layers = await tracedNames(input);
      return { names: await bounded(layers.names), debianPackages: await boundedOrNull(layers.debianPackages) };
    },

    /** D3-build: what the build read (headers, compile-time jars, install scripts); null for Python. */
    async tracedBuildDependencies(input: ExtractInput & { installed: NameList }): Promise<NameList | null> {
      return boundedOrNull(await tracedBuildNames(input, await names(input.installed)));
    },
  };
}
