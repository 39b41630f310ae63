import { parseDistIndex } from '../ecosystems/python/distIndex';
import type { InstalledDistribution } from '../ecosystems/python/record';
import { shellQuote } from '../text/shellQuote';

/** One package of an environment at one version. */
export interface ListedPackage {
  name: string;
  version: string;
}

/** What an environment holds, by kind: the interpreter's distributions, the Debian packages, npm's global packages. */
export interface EnvironmentListing {
  python: InstalledDistribution[];
  apt: ListedPackage[];
  npm: ListedPackage[];
  /** npm's global node_modules folder; null where the environment has no npm. */
  npmRoot: string | null;
}

/** Where the listing's files are written in a probe container. */
export const SETUP_DIR = '/tmp/envgap-setup';

/**
 * The shell lines that list an environment into SETUP_DIR: `dists.json` (the distributions the
 * interpreter sees, with their files: dist_index.py, the gap protocol's D3 index), `dpkg.tsv`
 * (dpkg-query's status, package and version), and where npm is on PATH `npm-root.txt` and `npm.json`
 * (`npm ls -g --json --depth=0`). An interpreter that is not there falls back to python3, as C1 does;
 * a listing that fails leaves its file empty (no packages of that kind).
 */
export function listingCommand(python: string | null): string {
  return [
    `out=${SETUP_DIR}; mkdir -p "$out"`,
    `P=${shellQuote(python ?? 'python3')}; command -v "$P" >/dev/null 2>&1 || P=python3`,
    `"$P" "$out/dist_index.py" > "$out/dists.json" 2>/dev/null || : > "$out/dists.json"`,
    `dpkg-query -W -f='\${db:Status-Abbrev}\\t\${Package}\\t\${Version}\\n' > "$out/dpkg.tsv" 2>/dev/null || : > "$out/dpkg.tsv"`,
    `if command -v npm >/dev/null 2>&1; then npm root -g > "$out/npm-root.txt" 2>/dev/null; npm ls -g --json --depth=0 > "$out/npm.json" 2>/dev/null; fi`,
    'printf "%s\\n" "$P"',
  ].join('\n');
}

/**
 * dpkg-query's `status<TAB>package<TAB>version` lines: the packages whose status is installed
 * (`ii`, `hi`: the second letter of db:Status-Abbrev). Lines of another shape are skipped.
 */
export function parseDpkgQuery(text: string): ListedPackage[] {
  const out: ListedPackage[] = [];
  for (const line of text.split('\n')) {
    const [status, name, version] = line.split('\t');
    if (!status || !name || version === undefined || status[1] !== 'i') continue;
    out.push({ name, version });
  }
  return out;
}

/** `npm ls -g --json --depth=0`: the global packages under `dependencies` (an empty text: no npm). */
export function parseNpmGlobal(text: string, file = 'npm.json'): ListedPackage[] {
  if (text.trim() === '') return [];
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error(`${file}: not the JSON of npm ls: ${JSON.stringify(text.slice(0, 200))}`);
  }
  const deps = (data as { dependencies?: unknown })?.dependencies;
  if (deps === undefined) return [];
  if (typeof deps !== 'object' || deps === null) throw new Error(`${file}: field dependencies is not an object`);
  return Object.entries(deps as Record<string, { version?: unknown }>).map(([name, d]) => ({ name, version: typeof d?.version === 'string' ? d.version : '' }));
}

/** The listing's files, as read back from the container (an absent file as ''). */
export function parseListing(files: { dists: string; dpkg: string; npm: string; npmRoot: string }): EnvironmentListing {
  const root = files.npmRoot.trim();
  return { python: files.dists.trim() === '' ? [] : parseDistIndex(files.dists, 'dists.json'), apt: parseDpkgQuery(files.dpkg), npm: parseNpmGlobal(files.npm), npmRoot: root.startsWith('/') ? root : null };
}
