import * as fs from 'node:fs';
import * as path from 'node:path';
import { GoldAnswer, type ReadmeInstanceRef } from '../domain/readme';
import { describeIssues } from '../text/zodIssues';

/** The gold answer's file names: 4,185 instances have README.json, 16 have readme.json. */
const GOLD_FILE_NAMES = ['README.json', 'readme.json'];
const REPO_PREFIX = 'error_gen_';

/**
 * The folder holding the `error_gen_*` repository folders: `dataDir/Enconda-bench` (dataDir laid out as
 * shared/data/enconda), or dataDir itself where it already is that folder (upstream's `--data_root_dir`).
 */
export function encondaBenchRoot(dataDir: string): string {
  const inner = path.join(dataDir, 'Enconda-bench');
  if (fs.existsSync(inner) && fs.statSync(inner).isDirectory()) return inner;
  if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).some((n) => n.startsWith(REPO_PREFIX))) return dataDir;
  throw new Error(`EnConda-Bench data not found: ${dataDir} holds neither Enconda-bench/ nor error_gen_* folders`);
}

function subfolders(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/** The gold file's name in an instance folder, matched by exact name (readdir, so case counts on any file system). */
function goldFileName(folder: string): string | null {
  const names = new Set(fs.readdirSync(folder));
  return GOLD_FILE_NAMES.find((n) => names.has(n)) ?? null;
}

/**
 * Every instance of the data set, sorted by repository folder then name: each folder under
 * `error_gen_*​/` that holds a README.json or readme.json. The released data set has 4,201 (in 321
 * repository folders; 48 of them level0, with no errors). Instance names are unique across repositories.
 */
export function listReadmeInstances(dataDir: string): ReadmeInstanceRef[] {
  const root = encondaBenchRoot(dataDir);
  const out: ReadmeInstanceRef[] = [];
  for (const repoFolder of subfolders(root).filter((n) => n.startsWith(REPO_PREFIX))) {
    for (const name of subfolders(path.join(root, repoFolder))) {
      if (goldFileName(path.join(root, repoFolder, name)) !== null) out.push({ name, repoFolder, repo: repoFolder.slice(REPO_PREFIX.length) });
    }
  }
  return out;
}

export function instanceFolder(dataDir: string, ref: ReadmeInstanceRef): string {
  return path.join(encondaBenchRoot(dataDir), ref.repoFolder, ref.name);
}

/** The gold file of the instance's OWN folder (never another instance's, as upstream's substring lookup can give). */
export function goldFile(dataDir: string, ref: ReadmeInstanceRef): string {
  const folder = instanceFolder(dataDir, ref);
  const name = fs.existsSync(folder) ? goldFileName(folder) : null;
  if (name === null) throw new Error(`gold answer not found: ${folder} holds no README.json or readme.json`);
  return path.join(folder, name);
}

/** Parses a gold answer; errors name the file and the field. */
export function parseGold(text: string, file: string): GoldAnswer {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(`${file}: not JSON: ${(e as Error).message}`);
  }
  const parsed = GoldAnswer.safeParse(raw);
  if (!parsed.success) throw new Error(`${file}: not a gold answer: ${describeIssues(parsed.error).join('; ')}`);
  return parsed.data;
}

export function readGold(dataDir: string, ref: ReadmeInstanceRef): GoldAnswer {
  const file = goldFile(dataDir, ref);
  return parseGold(fs.readFileSync(file, 'utf8'), file);
}

// Upstream's data_processor reads README{.md,.rst,.txt,''} only, preferring .md; the data set also has
// readme.md, readme.rst, README.adoc and README.org, which upstream never reads on a case-sensitive file system.
const README_PREFERENCE = ['.md', '.rst', '.txt', ''];

/** The instance's README (any `readme*` file but the gold JSON): .md first, then .rst, .txt, none, then by name. */
export function readReadme(dataDir: string, ref: ReadmeInstanceRef): { fileName: string; text: string } {
  const folder = instanceFolder(dataDir, ref);
  const candidates = fs
    .readdirSync(folder)
    .filter((n) => /^readme(\.|$)/i.test(n) && !/\.json$/i.test(n))
    .sort();
  const rank = (n: string) => {
    const i = README_PREFERENCE.indexOf(path.extname(n).toLowerCase());
    return i === -1 ? README_PREFERENCE.length : i;
  };
  const fileName = [...candidates].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))[0];
  if (fileName === undefined) throw new Error(`README not found: ${folder} holds no README file`);
  return { fileName, text: fs.readFileSync(path.join(folder, fileName), 'utf8') };
}
