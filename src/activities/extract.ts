import { ApplicationFailure } from '@temporalio/activity';
import type { BlobStore } from '../db/blobs';
import type { ProjectFiles } from '../domain/files';
import { declaredDependencies } from '../ecosystems/declared';
import { installedLayer, LAYER_ARTEFACTS, MissingArtefactError, tracedBuildLayer, tracedDebianPackagesLayer, tracedLayer, type ArtefactTexts } from '../ecosystems/layers';
import type { DeclaredInput, DeclaredResult, ExecutionArtefacts, ExtractInput } from './types';

export function createExtractActivities({ blobs }: { blobs: BlobStore }) {
  async function texts(artefacts: ExecutionArtefacts, names: string[]): Promise<ArtefactTexts> {
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

  return {
    /** ParseManifest(M0) -> D1. A manifest that cannot be parsed declares nothing, and says why. */
    async declaredDependencies(input: DeclaredInput): Promise<DeclaredResult> {
      return declaredDependencies(input.language, await blobs.getJson<ProjectFiles>(input.filesHash));
    },

    /** Resolve(Mk) -> D2: what the package manager put into the clean environment. */
    async installedDependencies(input: ExtractInput): Promise<string[]> {
      // Only C++ reads the manifest again (its D2 starts from the final D1).
      const [t, files] = await Promise.all([
        texts(input.artefacts, LAYER_ARTEFACTS.installed[input.language]),
        input.language === 'cpp' ? blobs.getJson<ProjectFiles>(input.filesHash) : {},
      ]);
      return extract(() => installedLayer(input.language, t, files));
    },

    /**
     * Trace(Ck) -> D3: files the program opened, mapped to packages by the ecosystem's own records;
     * with the Debian packages of the shared objects it loaded, where dpkg was asked (C++).
     */
    async tracedDependencies(input: ExtractInput): Promise<{ names: string[]; debianPackages: string[] | null }> {
      const t = await texts(input.artefacts, LAYER_ARTEFACTS.traced[input.language]);
      return extract(() => ({ names: tracedLayer(input.language, t), debianPackages: tracedDebianPackagesLayer(input.language, t) }));
    },

    /** D3-build: what the build read (headers, compile-time jars, install scripts); null for Python. */
    async tracedBuildDependencies(input: ExtractInput & { installed: string[] }): Promise<string[] | null> {
      const t = await texts(input.artefacts, LAYER_ARTEFACTS.tracedBuild[input.language]);
      return extract(() => tracedBuildLayer(input.language, t, input.installed));
    },
  };
}
