import * as fs from 'node:fs';
import * as path from 'node:path';
import { encondaBenchRoot, listReadmeInstances } from './dataset';

/** One repository folder of the data set as upstream's evaluator walks it, in a given order. */
export interface ListedRepo {
  name: string;
  folders: { name: string; hasReadmeJson: boolean }[];
}

/**
 * Upstream's evaluator._find_golden_answer_file, reproduced to measure it: the first folder, in directory
 * order, whose name equals the readme name (or it without its last `.suffix`), contains it, or is contained
 * in it, AND that holds `README.json` (exact case: `readme.json` is skipped). So `x_error_readme_1_only_E1`
 * finds `x_error_readme_1`'s gold when that folder comes first, and names with a dot (`biothings.api`) are
 * cut at it. Returns `repo/folder`, or null where upstream finds nothing (and drops the file).
 */
export function upstreamGoldFolder(listing: readonly ListedRepo[], readmeName: string): string | null {
  const base = readmeName.includes('.') ? readmeName.slice(0, readmeName.lastIndexOf('.')) : readmeName;
  for (const repo of listing) {
    for (const f of repo.folders) {
      const isMatch = f.name === readmeName || f.name === base || f.name.includes(base) || base.includes(f.name);
      if (isMatch && f.hasReadmeJson) return `${repo.name}/${f.name}`;
    }
  }
  return null;
}

/**
 * `sorted`: names in code-unit order (as Node's readdir gives them); `filesystem`: the order the file
 * system returns entries (Python's Path.iterdir, which upstream uses), so the result depends on the machine.
 */
export type DirectoryOrder = 'sorted' | 'filesystem';

function entries(dir: string, order: DirectoryOrder): fs.Dirent[] {
  if (order === 'sorted') return fs.readdirSync(dir, { withFileTypes: true });
  const d = fs.opendirSync(dir);
  const out: fs.Dirent[] = [];
  try {
    for (let e = d.readSync(); e !== null; e = d.readSync()) out.push(e);
  } finally {
    d.closeSync();
  }
  return out;
}

/** The data set as upstream's lookup sees it: every folder of every repository folder, in `order`. */
export function listForUpstreamLookup(dataDir: string, order: DirectoryOrder): ListedRepo[] {
  const root = encondaBenchRoot(dataDir);
  return entries(root, order)
    .filter((e) => e.isDirectory())
    .map((repo) => ({
      name: repo.name,
      folders: entries(path.join(root, repo.name), order)
        .filter((e) => e.isDirectory())
        .map((f) => ({ name: f.name, hasReadmeJson: fs.existsSync(path.join(root, repo.name, f.name, 'README.json')) })),
    }));
}

export interface UpstreamLookupShare {
  instances: number;
  /** Resolved to the instance's own folder. */
  own: number;
  /** Resolved to another instance's gold. */
  other: number;
  /** Not resolved at all (upstream drops the file). */
  missing: number;
  other_share: number;
}

/** How upstream's lookup resolves every instance (instances: folders holding README.json or readme.json). */
export function measureUpstreamGoldLookup(listing: readonly ListedRepo[], hasGold: (repo: string, folder: string) => boolean): UpstreamLookupShare {
  let own = 0;
  let other = 0;
  let missing = 0;
  for (const repo of listing) {
    for (const f of repo.folders) {
      if (!hasGold(repo.name, f.name)) continue;
      const found = upstreamGoldFolder(listing, f.name);
      if (found === null) missing++;
      else if (found === `${repo.name}/${f.name}`) own++;
      else other++;
    }
  }
  const instances = own + other + missing;
  return { instances, own, other, missing, other_share: instances > 0 ? other / instances : 0 };
}

/** measureUpstreamGoldLookup over the data set in dataDir, its instances as listReadmeInstances finds them. */
export function measureUpstreamGoldLookupIn(dataDir: string, order: DirectoryOrder): UpstreamLookupShare {
  const instances = new Set(listReadmeInstances(dataDir).map((r) => `${r.repoFolder}/${r.name}`));
  return measureUpstreamGoldLookup(listForUpstreamLookup(dataDir, order), (repo, folder) => instances.has(`${repo}/${folder}`));
}
