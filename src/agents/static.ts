import * as path from 'node:path';
import type { ProjectFiles } from '../domain/files';
import type { Language } from '../domain/instance';
import type { StaticSpec } from '../domain/agentSpec';
import { ReplayAgent } from './replay';
import { cppLibrariesInManifest, cppLibrariesOf, cppManifest, cppMissingFromError, inferCppManifest } from './static/cpp';
import { inferJavaManifest, javaMissingFromError, javaPomWith } from './static/java';
import { inferJavascriptManifest, javascriptManifest, javascriptMissingFromError } from './static/javascript';
import { inferPythonManifest, pythonMissingFromError } from './static/python';
import { AgentGaveUpError, type Agent, type AgentRequest, type AgentResponse } from './types';

/** The files each language's runner reads as the manifest; the static agent replaces them. */
export const STATIC_MANIFESTS: Readonly<Record<Language, readonly string[]>> = {
  python: ['requirements.txt', 'apt.txt'],
  javascript: ['package.json', 'package-lock.json', 'apt.txt'],
  java: ['pom.xml', 'apt.txt'],
  cpp: ['CMakeLists.txt', 'apt.txt'],
};

/** The source project's files with its manifest left out and the inferred one written in its place. */
export function staticGen(language: Language, source: ProjectFiles): ProjectFiles {
  const code: ProjectFiles = {};
  for (const [p, content] of Object.entries(source)) if (!STATIC_MANIFESTS[language].includes(p)) code[p] = content;
  const manifest =
    language === 'python' ? inferPythonManifest(code)
    : language === 'javascript' ? inferJavascriptManifest(code, source['package.json'])
    : language === 'java' ? inferJavaManifest(code)
    : inferCppManifest(code);
  return sortedFiles({ ...code, ...manifest });
}

/** The previous project plus the dependency the error names, or null when it names nothing the tables map. */
export function staticRepair(language: Language, previous: ProjectFiles, errorTail: string): ProjectFiles | null {
  switch (language) {
    case 'python': {
      const dist = pythonMissingFromError(errorTail);
      const have = previous['requirements.txt'] ?? '';
      const lines = have.split('\n').filter((l) => l.trim() !== '');
      if (!dist || lines.some((l) => l.trim().toLowerCase() === dist.toLowerCase())) return null;
      return sortedFiles({ ...previous, 'requirements.txt': [...lines, dist].sort().map((l) => `${l}\n`).join('') });
    }
    case 'javascript': {
      const name = javascriptMissingFromError(errorTail);
      const pkg = previous['package.json'];
      const deps = Object.keys((safeJson(pkg)?.dependencies as Record<string, string> | undefined) ?? {});
      if (!name || deps.includes(name)) return null;
      return sortedFiles({ ...previous, 'package.json': javascriptManifest(pkg, [...deps, name]) });
    }
    case 'java': {
      const coordinate = javaMissingFromError(errorTail);
      const pom = previous['pom.xml'] ?? '';
      if (!coordinate || pom.includes(`<artifactId>${coordinate.artifactId}</artifactId>`)) return null;
      return sortedFiles({ ...previous, 'pom.xml': javaPomWith(pom, previous, coordinate) });
    }
    case 'cpp': {
      const lib = cppMissingFromError(errorTail);
      const cmake = previous['CMakeLists.txt'] ?? '';
      const have = [...cppLibrariesOf(previous), ...cppLibrariesInManifest(cmake)];
      if (!lib || have.includes(lib)) return null;
      const code = Object.fromEntries(Object.entries(previous).filter(([p]) => !STATIC_MANIFESTS.cpp.includes(p)));
      return sortedFiles({ ...code, ...cppManifest(code, [...have, lib]) });
    }
  }
}

function safeJson(text: string | undefined): Record<string, unknown> | null {
  try {
    return text ? (JSON.parse(text) as Record<string, unknown>) : null;
  } catch {
    return null;
  }
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
