import type { BlobStore } from '../db/blobs';
import type { ProjectFiles } from '../domain/files';
import type { Language } from '../domain/instance';
import { boundNames, type NameList } from '../domain/nameList';
import { capMessage } from '../text/excerpt';
import { declaredDependencies } from '../ecosystems/declared';
import type { FinalLayers } from '../ecosystems/finalLayers';
import type { DeclaredResult, LayersResult } from './types';

/** Names capped, and a long list stored as a blob: what returns from an activity enters workflow history. */
export async function storeBounded(blobs: BlobStore, list: string[]): Promise<NameList> {
  const b = boundNames(list);
  return b.inline ? b.names : { blob: await blobs.putJson(b.names), count: b.names.length };
}

/** The final layers as they travel into history: each list bounded. */
export async function storeLayers(blobs: BlobStore, l: FinalLayers): Promise<LayersResult> {
  const or = (list: string[] | null) => (list === null ? Promise.resolve(null) : storeBounded(blobs, list));
  const [installed, traced, tracedDebianPackages, tracedBuild] = await Promise.all([or(l.installed), or(l.traced), or(l.debianPackages), or(l.tracedBuild)]);
  const optional = async (list: string[] | undefined) => (list === undefined ? undefined : storeBounded(blobs, list));
  const [installedTest, installedProvided, tracedAggregated, tracedBase] = await Promise.all([
    optional(l.installedApart?.test),
    optional(l.installedApart?.provided),
    optional(l.tracedAggregated),
    optional(l.tracedBase),
  ]);
  // Absent rather than undefined: the layers go into workflow history as JSON, and the record's fingerprint compares them.
  return {
    installed,
    traced,
    tracedDebianPackages,
    tracedBuild,
    ...(installedTest ? { installedTest } : {}),
    ...(installedProvided ? { installedProvided } : {}),
    ...(tracedAggregated ? { tracedAggregated } : {}),
    ...(tracedBase ? { tracedBase } : {}),
  };
}

/** ParseManifest(M0) -> D1, as it travels into history: the names bounded, the parse error capped. */
export async function storeDeclared(blobs: BlobStore, language: Language, files: ProjectFiles): Promise<DeclaredResult> {
  const declared = declaredDependencies(language, files);
  const [names, testScoped] = await Promise.all([storeBounded(blobs, declared.names), storeBounded(blobs, declared.testScoped)]);
  return { names, manifestStatus: declared.manifestStatus, problem: declared.problem === null ? null : capMessage(declared.problem), testScoped };
}
