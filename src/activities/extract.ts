import { ApplicationFailure } from '@temporalio/activity';
import type { BlobStore } from '../db/blobs';
import type { ProjectFiles } from '../domain/files';
import type { Language } from '../domain/instance';
import { boundNames, isStoredNames, type NameList } from '../domain/nameList';
import { capMessage } from '../text/excerpt';
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

  /** Names capped, and a long list stored as a blob: what returns from here enters workflow history. */
  async function bounded(list: string[]): Promise<NameList> {
    const b = boundNames(list);
    return b.inline ? b.names : { blob: await blobs.putJson(b.names), count: b.names.length };
  }

  const names = (list: NameList): Promise<string[]> => (isStoredNames(list) ? blobs.getJson<string[]>(list.blob) : Promise.resolve(list));

  return {
    /** ParseManifest(M0) -> D1. A manifest that cannot be parsed declares nothing. */
    async declaredDependencies(input: DeclaredInput): Promise<DeclaredResult> {
      const declared = declaredDependencies(input.language, await blobs.getJson<ProjectFiles>(input.filesHash));
      return {
        names: await bounded(declared.names),
        manifestStatus: declared.manifestStatus,
        problem: declared.problem === null ? null : capMessage(declared.problem),
        testScoped: await bounded(declared.testScoped),
      };
    },

    /** Resolve(Mk) -> D2: what the package manager put into the clean environment. */
    async installedDependencies(input: ExtractInput): Promise<NameList> {
      const { installed } = ecosystemOf(input.language);
      // Only a layer that reads the manifest again (C++: its D2 starts from the final D1) loads the project.
      const [t, files] = await Promise.all([
        texts(input.artefacts, installed.reads),
        installed.readsProject ? blobs.getJson<ProjectFiles>(input.filesHash) : {},
      ]);
      return bounded(await extract(() => extractLayer(installed, t, files)));
    },

    /**
     * Trace(Ck) -> D3: files the program opened, mapped to packages by the ecosystem's own records;
     * with the Debian packages of the shared objects it loaded, where dpkg was asked (C++).
     */
    async tracedDependencies(input: ExtractInput): Promise<{ names: NameList; debianPackages: NameList | null }> {
      const { traced, tracedDebianPackages } = ecosystemOf(input.language);
      const t = await texts(input.artefacts, [...new Set([...traced.reads, ...(tracedDebianPackages?.reads ?? [])])]);
      const layers = await extract(() => ({ names: extractLayer(traced, t), debianPackages: tracedDebianPackages ? extractLayer(tracedDebianPackages, t) : null }));
      return { names: await bounded(layers.names), debianPackages: layers.debianPackages && (await bounded(layers.debianPackages)) };
    },

    /** D3-build: what the build read (headers, compile-time jars, install scripts); null for Python. */
    async tracedBuildDependencies(input: ExtractInput & { installed: NameList }): Promise<NameList | null> {
      const { tracedBuild } = ecosystemOf(input.language);
      if (!tracedBuild) return null;
      const [t, installed] = await Promise.all([texts(input.artefacts, tracedBuild.reads), names(input.installed)]);
      return bounded(await extract(() => extractLayer(tracedBuild, t, installed)));
    },
  };
}
