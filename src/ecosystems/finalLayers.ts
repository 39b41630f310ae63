import type { ProjectFiles } from '../domain/files';
import type { Language } from '../domain/instance';
import { extractLayer, type AnyEcosystem, type ArtefactTexts } from './ecosystem';
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
}

const ecosystemOf = (language: Language): AnyEcosystem => ECOSYSTEMS[language];

/** The artefacts the wanted layers read, and whether they need the project's files. */
export function finalLayerReads(language: Language, want: FinalLayersWanted): { artefacts: string[]; project: boolean } {
  const e = ecosystemOf(language);
  const reads = new Set<string>();
  if (want.installed) for (const r of e.installed.reads) reads.add(r);
  if (want.traced) {
    for (const r of [...e.traced.reads, ...(e.tracedDebianPackages?.reads ?? []), ...(e.tracedBuild?.reads ?? [])]) reads.add(r);
  }
  return { artefacts: [...reads], project: want.installed && e.installed.readsProject };
}

/**
 * Resolve(Mk) -> D2 and Trace(Ck) -> D3 with D3-build (which reads D2), from the final execution's
 * artefact texts. Pure; throws MissingArtefactError where an artefact a layer reads is absent.
 */
export function finalLayers(language: Language, texts: ArtefactTexts, files: ProjectFiles, want: FinalLayersWanted): FinalLayers {
  const e = ecosystemOf(language);
  const installed = want.installed ? extractLayer(e.installed, texts, files) : null;
  if (!want.traced) return { installed, traced: null, debianPackages: null, tracedBuild: null };
  return {
    installed,
    traced: extractLayer(e.traced, texts),
    debianPackages: e.tracedDebianPackages ? extractLayer(e.tracedDebianPackages, texts) : null,
    tracedBuild: e.tracedBuild ? extractLayer(e.tracedBuild, texts, installed ?? []) : null,
  };
}
