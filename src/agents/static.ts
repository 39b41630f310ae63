import * as path from 'node:path';
import type { ProjectFiles } from '../domain/files';
import { LANGUAGES, type Language } from '../domain/instance';
import type { StaticSpec } from '../domain/agentSpec';
import { ReplayAgent } from './replay';
import { ECOSYSTEMS } from '../ecosystems/registry';
import { AgentGaveUpError, type Agent, type AgentRequest, type AgentResponse } from './types';

/** The files each language's runner reads as the manifest; the static agent replaces them (each ecosystem record's `staticBaseline`). */
export const STATIC_MANIFESTS = Object.fromEntries(LANGUAGES.map((l) => [l, ECOSYSTEMS[l].staticBaseline.manifestFiles])) as Readonly<Record<Language, readonly string[]>>;

/** The source project's files with its manifest left out and the inferred one written in its place. */
export function staticGen(language: Language, source: ProjectFiles): ProjectFiles {
  const baseline = ECOSYSTEMS[language].staticBaseline;
  const code: ProjectFiles = {};
  for (const [p, content] of Object.entries(source)) if (!baseline.manifestFiles.includes(p)) code[p] = content;
  return sortedFiles({ ...code, ...baseline.infer(code, source) });
}

/** The previous project plus the dependency the error names, or null when it names nothing the tables map. */
export function staticRepair(language: Language, previous: ProjectFiles, errorTail: string): ProjectFiles | null {
  const repaired = ECOSYSTEMS[language].staticBaseline.repair(previous, errorTail);
  return repaired && sortedFiles(repaired);
}

function sortedFiles(files: ProjectFiles): ProjectFiles {
  return Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The import-scan baseline: another agent's recorded code with a manifest inferred from its imports
 * (Gen), and repairs that add only the dependency an error message names. No network, no model.
 */
export class StaticAgent implements Agent {
  private readonly source: ReplayAgent;

  constructor(private readonly spec: StaticSpec) {
    this.source = new ReplayAgent({ kind: 'replay', name: spec.name, path: spec.path });
  }

  get name(): string {
    return this.spec.name;
  }

  async call(req: AgentRequest, signal?: AbortSignal): Promise<AgentResponse> {
    signal?.throwIfAborted();
    const started = Date.now();
    let files: ProjectFiles;
    if (req.iteration === 0 || !req.previousFiles) {
      const source = await this.source.call({ ...req, trial: this.spec.trial ?? req.trial, iteration: this.spec.iteration ?? 0 }, signal);
      files = staticGen(req.language, source.files);
    } else {
      const repaired = staticRepair(req.language, req.previousFiles, req.error?.tail ?? '');
      if (!repaired) {
        throw new AgentGaveUpError(`static agent "${this.name}": the error names no ${req.language} dependency that its tables map and the manifest lacks; it gives up`);
      }
      files = repaired;
    }
    return { files, tokensIn: null, tokensOut: null, costUsd: null, durationMs: Date.now() - started, transcript: `static import scan of ${path.join(this.spec.path, req.language, req.task.id)}` };
  }
}
