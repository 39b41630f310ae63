import { ApplicationFailure } from '@temporalio/activity';
import * as path from 'node:path';
import type { BlobStore } from '../db/blobs';
import type { ProjectFiles } from '../domain/files';
import { diffInstalled, parsePipListJson } from '../ecosystems/python/piplist';
import { mapFilesToDistributions, type InstalledDistribution } from '../ecosystems/python/record';
import { ManifestError, parseRequirements } from '../ecosystems/python/requirements';
import { parseStraceOpenedFiles } from '../ecosystems/python/strace';
import type { DeclaredInput, DeclaredResult, ExecutionArtefacts } from './types';

export function createExtractActivities({ blobs }: { blobs: BlobStore }) {
  return {
    /** ParseManifest(M0) -> D1. A manifest that cannot be parsed declares nothing, and says why. */
    async declaredDependencies(input: DeclaredInput): Promise<DeclaredResult> {
      if (input.language !== 'python') throw ApplicationFailure.nonRetryable(`no manifest parser for "${input.language}" yet`, 'UnsupportedLanguage');
      const files = await blobs.getJson<ProjectFiles>(input.filesHash);
      const text = files['requirements.txt'];
      if (text === undefined) return { names: [], manifestFound: false, problem: null };
      try {
        const parsed = parseRequirements(text, {
          fileName: 'requirements.txt',
          readInclude: (p) => files[path.posix.normalize(p)],
        });
        return { names: [...new Set(parsed.dependencies.map((d) => d.name))].sort(), manifestFound: true, problem: null };
      } catch (err) {
        if (err instanceof ManifestError) return { names: [], manifestFound: true, problem: err.message };
        throw err;
      }
    },

    /** Resolve(Mk) -> D2: what the package manager added to the clean environment. */
    async installedDependencies(a: Pick<ExecutionArtefacts, 'installedBefore' | 'installedAfter'>): Promise<string[]> {
      if (!a.installedBefore || !a.installedAfter) throw ApplicationFailure.nonRetryable('no installed-package lists were recorded', 'MissingArtefact');
      return diffInstalled(parsePipListJson(await blobs.getText(a.installedBefore)), parsePipListJson(await blobs.getText(a.installedAfter)));
    },

    /** Trace(Ck) -> D3: files the program opened, mapped to distributions through their RECORD files. */
    async tracedDependencies(a: Pick<ExecutionArtefacts, 'runTrace' | 'baselineTrace' | 'distributionIndex'>): Promise<string[]> {
      if (!a.runTrace || !a.distributionIndex) throw ApplicationFailure.nonRetryable('no trace or distribution index was recorded', 'MissingArtefact');
      const opened = parseStraceOpenedFiles(await blobs.getText(a.runTrace));
      const baseline = a.baselineTrace ? parseStraceOpenedFiles(await blobs.getText(a.baselineTrace)) : [];
      const dists = await blobs.getJson<InstalledDistribution[]>(a.distributionIndex);
      return mapFilesToDistributions(opened, dists, { baselinePaths: baseline });
    },
  };
}
