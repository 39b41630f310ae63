import { ApplicationFailure } from '@temporalio/activity';
import type { BlobStore } from '../db/blobs';
import type { ProjectFiles } from '../domain/files';
import type { Language } from '../domain/instance';
import { declaredDependencies } from '../ecosystems/declared';
import { extractLayer, MissingArtefactError, type AnyEcosystem, type ArtefactTexts } from '../ecosystems/ecosystem';
import { ECOSYSTEMS } from '../ecosystems/registry';
import type { DeclaredInput, DeclaredResult, ExecutionArtefacts, ExtractInput } from './types';

const ecosystemOf = (language: Language): AnyEcosystem => ECOSYSTEMS[language];

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

  return {
    /** ParseManifest(M0) -> D1. A manifest that cannot be parsed declares nothing, and says why. */
    async declaredDependencies(input: DeclaredInput): Promise<DeclaredResult> {
      return declaredDependencies(input.language, await blobs.getJson<ProjectFiles>(input.filesHash));
    },

    /** Resolve(Mk) -> D2: what the package manager put into the clean environment. */
    async installedDependencies(input: ExtractInput): Promise<string[]> {
      const { installed } = ecosystemOf(input.language);
      // Only a layer that reads the manifest again (C++: its D2 starts from the final D1) loads the project.
      const [t, files] = await Promise.all([
        texts(input.artefacts, installed.reads),
        installed.readsProject ? blobs.getJson<ProjectFiles>(input.filesHash) : {},
      ]);
      return extract(() => extractLayer(installed, t, files));
    },

    /**
     * Trace(Ck) -> D3: files the program opened, mapped to packages by the ecosystem's own records;
     * with the Debian packages of the shared objects it loaded, where dpkg was asked (C++).
     */
    async tracedDependencies(input: ExtractInput): Promise<{ names: string[]; debianPackages: string[] | null }> {
      const { traced, tracedDebianPackages } = ecosystemOf(input.language);
      const t = await texts(input.artefacts, [...new Set([...traced.reads, ...(tracedDebianPackages?.reads ?? [])])]);
      return extract(() => ({ names: extractLayer(traced, t), debianPackages: tracedDebianPackages ? extractLayer(tracedDebianPackages, t) : null }));
    },

    /** D3-build: what the build read (headers, compile-time jars, install scripts); null for Python. */
    async tracedBuildDependencies(input: ExtractInput & { installed: string[] }): Promise<string[] | null> {
      const { tracedBuild } = ecosystemOf(input.language);
      if (!tracedBuild) return null;
      const t = await texts(input.artefacts, tracedBuild.reads);
      return extract(() => extractLayer(tracedBuild, t, input.installed));
    },
  };
}
