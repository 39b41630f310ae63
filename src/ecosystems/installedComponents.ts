import type { Language } from '../domain/instance';
import type { ArtefactTexts } from './ecosystem';
import { parseResolvedArtifacts } from './java/resolve';
import { normalizePythonName } from './python/pep503';
import { parsePipListJson } from './python/piplist';
import { normalizeLibraryName } from './systemLibraries';

/** The package-URL type of a component (https://github.com/package-url/purl-spec). */
import type { PurlType } from './purlType';

/** One installed package (a D2 name) at one version, with what its package URL needs. */
export interface InstalledComponent {
  /** The name as in the record's `installed`. */
  name: string;
  /** null where the artefacts give none (C++ libraries CMake found without a version, FetchContent sources). */
  version: string | null;
  /** Maven's groupId, npm's scope (without `@`); absent otherwise. */
  namespace?: string;
  purlType: PurlType;
}

/**
 * D2 with versions, from the same artefacts D2 is read from, for the names in `installed` (D2). Pure.
 * An npm package installed at two versions gives two components. Null where the artefacts needed are
 * absent (records from before, a failed install).
 */
export function installedComponents(language: Language, texts: ArtefactTexts, installed: readonly string[]): InstalledComponent[] | null {
  const wanted = new Set(installed);
  const all = COMPONENTS[language](texts, wanted);
  return all === null ? null : all.filter((c) => wanted.has(c.name));
}

/** The record's `installed_versions`: name -> version (two or more versions of one npm name joined by ", ", sorted). */
export function installedVersionMap(components: readonly InstalledComponent[]): Record<string, string | null> {
  const byName = new Map<string, Set<string>>();
  for (const c of components) {
    const versions = byName.get(c.name) ?? new Set<string>();
    if (c.version !== null) versions.add(c.version);
    byName.set(c.name, versions);
  }
  return Object.fromEntries([...byName.keys()].sort().map((name) => {
    const versions = [...byName.get(name)!].sort();
    return [name, versions.length === 0 ? null : versions.join(', ')];
  }));
}

type Reader = (texts: ArtefactTexts, installed: Set<string>) => InstalledComponent[] | null;

/** Python: the versions `pip list` reports after the install, for the D2 names (the diff). */
const python: Reader = (t) => {
  if (!t.installedAfter) return null;
  return parsePipListJson(t.installedAfter).map((p) => ({ name: normalizePythonName(p.name), version: p.version, purlType: 'pypi' as const }));
};

interface NpmLsNode {
  dependencies?: Record<string, NpmLsNode>;
  version?: unknown;
  missing?: boolean;
}

/** JavaScript: every (name, version) of the `npm ls --all --json` tree, once each. */
const javascript: Reader = (t) => {
  if (!t.npmLs) return null;
  const start = t.npmLs.indexOf('{');
  let root: NpmLsNode;
  try {
    root = JSON.parse(start > 0 ? t.npmLs.slice(start) : t.npmLs) as NpmLsNode;
  } catch (err) {
    throw new Error(`npmLs: not the JSON of \`npm ls --all --json\`: ${(err as Error).message}`);
  }
  const seen = new Map<string, InstalledComponent>();
  const visit = (node: NpmLsNode) => {
    for (const [name, dep] of Object.entries(node.dependencies ?? {})) {
      if (typeof dep !== 'object' || dep === null || dep.missing === true) continue;
      const version = typeof dep.version === 'string' && dep.version !== '' ? dep.version : null;
      const key = `${name}@${version}`;
      if (!seen.has(key)) {
        const scoped = /^@([^/]+)\/(.+)$/.exec(name);
        seen.set(key, { name, version, ...(scoped ? { namespace: scoped[1] } : {}), purlType: 'npm' });
        visit(dep);
      }
    }
  };
  visit(root);
  return [...seen.values()];
};

/** Java: the coordinates `mvn dependency:list` resolved (D2 names are artifactIds). */
const java: Reader = (t) => {
  if (t.dependencyList == null) return null;
  const seen = new Map<string, InstalledComponent>();
  for (const a of parseResolvedArtifacts(t.dependencyList)) {
    seen.set(`${a.groupId}:${a.artifactId}:${a.version}`, { name: a.artifactId, version: a.version, namespace: a.groupId, purlType: 'maven' });
  }
  return [...seen.values()];
};

// `-- Found OpenSSL: /usr/lib/…/libcrypto.so (found version "3.0.11")`; `--   Found libcurl, version 7.88.1`.
const FOUND_WITH_VERSION = /^-- Found ([\w.+-]+): .*\(found (?:suitable )?version "([^"]+)"/gm;
const MODULE_WITH_VERSION = /^--\s+Found ([\w.+-]+), version (\S+)/gm;

/**
 * C++: the versions the CMake configure log reports for what it found; every other D2 name (FetchContent
 * sources, apt.txt packages, declared names found without a version) has version null. Library names are
 * `generic` purls; apt.txt's Debian packages would need dpkg, which the run does not ask for versions.
 */
const cpp: Reader = (t, installed) => {
  if (t.configureLog == null) return null;
  const versions = new Map<string, string>();
  for (const m of [...t.configureLog.matchAll(FOUND_WITH_VERSION), ...t.configureLog.matchAll(MODULE_WITH_VERSION)]) {
    const name = normalizeLibraryName(m[1].replace(/_(?:C|CXX|Fortran)$/, ''));
    if (!versions.has(name)) versions.set(name, m[2]);
  }
  return [...installed].map((name) => ({ name, version: versions.get(name) ?? null, purlType: 'generic' as const }));
};

const COMPONENTS: Record<Language, Reader> = { python, javascript, java, cpp };
