import type { ProjectFiles } from '../domain/files';
import type { Language } from '../domain/instance';
import { extractLayer, type AnyEcosystem, type ArtefactTexts, type InstalledApart } from './ecosystem';
import { ECOSYSTEMS } from './registry';

/** Which layers the final execution yields: D2 where the install ran, D3 and D3-build where the run succeeded. */
export interface FinalLayersWanted {
  installed: boolean;
  traced: boolean;
}

export interface FinalLayers {
  installed: string[] | null;
  traced: string[] | null;
  debianPackages: string[] | null;
  tracedBuild: string[] | null;
  /** With D2, where the ecosystem keeps names out of it (Java's test and provided scope). */
  installedApart?: InstalledApart;
  /** With D3: the names in it only because what they bring was traced (Java's starters). */
  tracedAggregated?: string[];
  /** With D3 and D2: the names of D3 not in D2 (what the image's own environment gave the run). */
  tracedBase?: string[];
}

const ecosystemOf = (language: Language): AnyEcosystem => ECOSYSTEMS[language];

/** The artefacts the wanted layers read, and whether they need the project's files. */
export function finalLayerReads(language: Language, want: FinalLayersWanted): { artefacts: string[]; project: boolean } {
  const e = ecosystemOf(language);
  const reads = new Set<string>();
  if (want.installed) for (const r of [...e.installed.reads, ...(e.installedApart?.reads ?? [])]) reads.add(r);
  if (want.traced) {
    const tracing = [e.traced, e.tracedDebianPackages, e.tracedBuild, e.tracedAggregated, e.tracedBase];
    for (const r of tracing.flatMap((l) => l?.reads ?? [])) reads.add(r);
  }
  return { artefacts: [...reads], project: want.installed && e.installed.readsProject };
}

/**
 * Resolve(Mk) -> D2 and Trace(Ck) -> D3 with D3-build (which reads D2), from the final execution's
 * artefact texts. D3 is what the run loaded, and the aggregators of D2 (Java's starters) whose
 * brought names it loaded. Pure; throws MissingArtefactError where an artefact a layer reads is absent.
 */
export function finalLayers(language: Language, texts: ArtefactTexts, files: ProjectFiles, want: FinalLayersWanted): FinalLayers {
  const e = ecosystemOf(language);
  const installed = want.installed ? extractLayer(e.installed, texts, files) : null;
  const installedApart = installed !== null && e.installedApart ? { installedApart: extractLayer(e.installedApart, texts) } : {};
  if (!want.traced) return { installed, traced: null, debianPackages: null, tracedBuild: null, ...installedApart };
  const loaded = extractLayer(e.traced, texts);
  const aggregated = e.tracedAggregated && installed !== null ? extractLayer(e.tracedAggregated, texts, loaded, installed) : null;
  const traced = aggregated && aggregated.length > 0 ? [...new Set([...loaded, ...aggregated])].sort() : loaded;
  return {
    installed,
    traced,
    debianPackages: e.tracedDebianPackages ? extractLayer(e.tracedDebianPackages, texts) : null,
    tracedBuild: e.tracedBuild ? extractLayer(e.tracedBuild, texts, installed ?? []) : null,
    ...installedApart,
    ...(aggregated !== null ? { tracedAggregated: aggregated } : {}),
    ...(e.tracedBase && installed !== null ? { tracedBase: extractLayer(e.tracedBase, texts, traced, installed) } : {}),
  };
}
