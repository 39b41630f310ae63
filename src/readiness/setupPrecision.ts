import { SETUP_KINDS, type SetupKind, type SetupKindResult, type SetupMeasurement, type SetupTracedCommand } from '../domain/setupPrecision';
import { diffInstalled } from '../ecosystems/python/piplist';
import { mapFilesToDistributions } from '../ecosystems/python/record';
import { normalizePosixPath } from '../ecosystems/posixPath';
import { parseDpkgSearch } from '../ecosystems/systemLibraries';
import type { EnvironmentListing, ListedPackage } from './setupListing';

export type ByKind = Record<SetupKind, string[]>;

/** Names new in `after` or at another version than in `before`, sorted (Debian and npm names compare as written). */
function changedNames(before: ListedPackage[], after: ListedPackage[]): string[] {
  const was = new Map(before.map((p) => [p.name, p.version]));
  return [...new Set(after.filter((p) => was.get(p.name) !== p.version).map((p) => p.name))].sort();
}

/**
 * What the agent installed: each kind of the frozen environment against the session's base image.
 * Python compares PEP 503 names and versions as D2 does (`pip list` before and after); a venv's seed
 * (pip, setuptools at the system's versions) is then no installation of the agent's.
 */
export function installedByAgent(base: EnvironmentListing, frozen: EnvironmentListing): ByKind {
  return {
    python: diffInstalled(base.python, frozen.python),
    apt: changedNames(base.apt, frozen.apt),
    npm: changedNames(base.npm, frozen.npm),
  };
}

/** Where dpkg may own a file: the system folders (not /usr/local, not /opt, /tmp, /repo, /proc). */
const DPKG_FOLDERS = /^\/(?:usr\/(?!local\/)|bin\/|sbin\/|lib(?:32|64|x32)?\/|etc\/)/;
/** Merged /usr: dpkg knows a file under one spelling only. */
const MERGED = /^\/(bin|sbin|lib|lib32|lib64|libx32)\//;

/** A program in any bin folder (a venv's `bin/python` links to the system's interpreter). */
const PROGRAM = /\/bin\/[^/]+$/;

/**
 * The opened paths to ask `dpkg -S` about: those in the system folders, each also under its other
 * merged-/usr spelling (/lib and /usr/lib, /bin and /usr/bin), and programs run from any bin folder
 * (for what they link to). The container keeps only regular files (a folder's owners are every
 * package with a file in it) and adds each one's resolved path.
 */
export function dpkgCandidatePaths(opened: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const raw of opened) {
    const path = normalizePosixPath(raw);
    if (!DPKG_FOLDERS.test(path)) {
      if (PROGRAM.test(path) && !path.startsWith('/usr/local/')) out.add(path);
      continue;
    }
    out.add(path);
    if (MERGED.test(path)) out.add(`/usr${path}`);
    else if (/^\/usr\/(?:bin|sbin|lib|lib32|lib64|libx32)\//.test(path)) out.add(path.slice(4));
  }
  return [...out].sort();
}

/** The global npm packages whose files were opened: the folder right under npm's root (`@scope/name` for a scoped one). */
export function npmPackagesOpened(opened: Iterable<string>, root: string | null): string[] {
  if (root === null) return [];
  const prefix = `${normalizePosixPath(root)}/`;
  const names = new Set<string>();
  for (const raw of opened) {
    const path = normalizePosixPath(raw);
    if (!path.startsWith(prefix)) continue;
    const [first, second] = path.slice(prefix.length).split('/');
    if (!first || first.startsWith('.')) continue;
    if (first.startsWith('@')) {
      if (second) names.add(`${first}/${second}`);
    } else names.add(first);
  }
  return [...names].sort();
}

export interface TraceEvidence {
  /** Every path the traced commands opened (open, openat, execve), absolute. */
  opened: string[];
  /** What a bare start of the interpreter opens (its .pth hooks): never a distribution's use, as for D3. */
  interpreterStart: string[];
  /** `dpkg -S` of the opened files (dpkgCandidatePaths), in the frozen environment. */
  dpkgOwners: string;
}

/**
 * What the traced commands used, by kind: the distributions whose RECORD lists an opened file (D3's
 * mapping, the interpreter's bare start subtracted), the Debian packages owning an opened file, the
 * global npm packages an opened file lies in.
 */
export function usedByTrace(frozen: EnvironmentListing, t: TraceEvidence): ByKind {
  return {
    python: mapFilesToDistributions(t.opened, frozen.python, { baselinePaths: t.interpreterStart }),
    apt: [...new Set(parseDpkgSearch(t.dpkgOwners).values())].sort(),
    npm: npmPackagesOpened(t.opened, frozen.npmRoot),
  };
}

function kindResult(installed: string[], used: string[], traced: boolean): SetupKindResult {
  const usedSet = new Set(used);
  const both = installed.filter((n) => usedSet.has(n));
  return { installed, used, installed_used: both, precision: traced && installed.length > 0 ? both.length / installed.length : null };
}

/**
 * Setup precision: per kind and over all kinds together, the installed packages the trace used over
 * the installed ones. Null where nothing was installed, and where no command was traced (nothing
 * could show use). Pure.
 */
export function setupPrecision(o: { installed: ByKind; used: ByKind; traced: SetupTracedCommand[]; python: string | null; baseImage: string | null }): SetupMeasurement {
  const anyTraced = o.traced.length > 0;
  const kinds = Object.fromEntries(SETUP_KINDS.map((k) => [k, kindResult(o.installed[k], o.used[k], anyTraced)])) as Record<SetupKind, SetupKindResult>;
  const installed = SETUP_KINDS.reduce((n, k) => n + kinds[k].installed.length, 0);
  const installedUsed = SETUP_KINDS.reduce((n, k) => n + kinds[k].installed_used.length, 0);
  return {
    python: o.python,
    base_image: o.baseImage,
    kinds,
    installed,
    installed_used: installedUsed,
    precision: anyTraced && installed > 0 ? installedUsed / installed : null,
    traced: o.traced,
  };
}
