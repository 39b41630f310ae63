import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ResearchEnvBenchCheckout } from './researchenvbenchRepos';
import type { BenchmarkScriptsFolder } from './researchenvbenchScripts';

/** Where upstream's repository keeps its repository list (URL, commit, supports) and each one's scripts. */
export const CHECKOUT_CSV = 'scripts_repos_test_categories.csv';
const SCRIPTS = 'scripts';

function readFolder(dir: string): BenchmarkScriptsFolder | null {
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return null;
  const files = fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);
  return { files, runAll: files.includes('run_all.sh') ? fs.readFileSync(path.join(dir, 'run_all.sh'), 'utf8') : null };
}

/**
 * Reads a checkout of upstream's repository (No-518/ResearchEnvBench): its categories CSV and each
 * scripts/<slug>/benchmark_scripts/ folder; `studyDir` is the folder of the study file to be written,
 * which names the scripts relative to itself.
 */
export function readResearchEnvBenchCheckout(dir: string, studyDir: string): ResearchEnvBenchCheckout {
  const csvFile = path.join(dir, CHECKOUT_CSV);
  if (!fs.existsSync(csvFile)) throw new Error(`${dir}: not a ResearchEnvBench checkout (no ${CHECKOUT_CSV})`);
  const scriptsDir = path.join(dir, SCRIPTS);
  const slugs = fs.existsSync(scriptsDir) ? fs.readdirSync(scriptsDir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name) : [];
  const folders = new Map<string, BenchmarkScriptsFolder>();
  for (const slug of slugs) {
    const folder = readFolder(path.join(scriptsDir, slug, 'benchmark_scripts'));
    if (folder) folders.set(slug, folder);
  }
  return { csvText: fs.readFileSync(csvFile, 'utf8'), csvSource: csvFile, folders, scriptsPath: path.relative(path.resolve(studyDir), path.resolve(scriptsDir)) || '.' };
}
