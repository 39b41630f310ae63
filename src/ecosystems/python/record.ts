import { normalizePythonName } from './pep503';
import { joinPosixPath, normalizePosixPath } from '../posixPath';

/** One installed distribution and its RECORD, as `importlib.metadata` reports them. */
export interface InstalledDistribution {
  name: string;
  version: string;
  /** Absolute site-packages directory the RECORD paths are relative to. */
  location: string;
  /** Paths exactly as listed in the RECORD, relative to location; may contain `../` (scripts in bin/). */
  files: string[];
}

/**
 * Absolute normalised path -> PEP 503 name of the distribution whose RECORD lists it. When two
 * RECORDs list the same path (old namespace-package `__init__.py` files), the first distribution
 * given keeps it.
 */
export function buildFileIndex(dists: InstalledDistribution[]): Map<string, string> {
  const index = new Map<string, string>();
  for (const dist of dists) {
    const name = normalizePythonName(dist.name);
    for (const file of dist.files) {
      const path = joinPosixPath(dist.location, file);
      if (!index.has(path)) index.set(path, name);
    }
  }
  return index;
}

// `pkg/__pycache__/mod.cpython-311.pyc` or `mod.cpython-311.opt-1.pyc` -> `pkg/mod.py`
const PYCACHE_FILE = /^(.*)\/__pycache__\/([^/.]+)\.[^/.]+(?:\.opt-\d+)?\.pyc$/;

/** The source file a cached bytecode file was compiled from, or null when the path is no `__pycache__` file. */
export function sourceOfCachedBytecode(path: string): string | null {
  const match = PYCACHE_FILE.exec(path);
  return match ? `${match[1]}/${match[2]}.py` : null;
}

// Reading metadata is not using a package: `importlib.metadata.entry_points()` and `version()` open
// the dist-info of packages the program never imports.
function isMetadataFile(path: string): boolean {
  return /\/[^/]+\.(?:dist-info|egg-info)\//.test(path);
}

// The interpreter opens every `.pth` file in site-packages at start-up, used or not.
function isPthFile(path: string): boolean {
  return path.endsWith('.pth');
}

/**
 * The distributions whose files the program opened: sorted unique PEP 503 names. A path counts only
 * through the RECORD index (never by its folder name); a `__pycache__` file that no RECORD lists counts
 * through its source `.py`. Never evidence: paths in baselinePaths (what a bare interpreter start opens)
 * and `__pycache__` files whose source is there, `.pth` files, and dist-info/egg-info metadata. The
 * standard library and the interpreter map to nothing: they are in no RECORD.
 */
export function mapFilesToDistributions(
  openedPaths: string[],
  dists: InstalledDistribution[],
  opts: { baselinePaths?: Iterable<string> } = {},
): string[] {
  return [...filesByDistribution(openedPaths, dists, opts).keys()].sort();
}

/** What mapFilesToDistributions counts, with the evidence: PEP 503 name -> the opened paths that counted for it, in the order opened. */
export function filesByDistribution(
  openedPaths: string[],
  dists: InstalledDistribution[],
  opts: { baselinePaths?: Iterable<string> } = {},
): Map<string, string[]> {
  const index = buildFileIndex(dists);
  const baseline = new Set<string>();
  for (const path of opts.baselinePaths ?? []) baseline.add(normalizePosixPath(path));

  const used = new Map<string, string[]>();
  for (const opened of openedPaths) {
    const path = normalizePosixPath(opened);
    if (isPthFile(path) || isMetadataFile(path)) continue;
    const source = sourceOfCachedBytecode(path);
    if (baseline.has(path) || (source !== null && baseline.has(source))) continue;
    const name = index.get(path) ?? (source === null ? undefined : index.get(source));
    if (name === undefined) continue;
    const files = used.get(name) ?? [];
    if (!files.includes(path)) files.push(path);
    used.set(name, files);
  }
  return used;
}
