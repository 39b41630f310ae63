import type { RunCoverage } from '../../domain/coverage';
import type { ProjectFiles } from '../../domain/files';
import { parseV8Scripts, v8ProjectCoverage } from '../../ecosystems/javascript/coverage';
import { OUT, type Steps } from './steps';

/** Where each Node.js process of the run writes its V8 coverage report (Node's own NODE_V8_COVERAGE; nothing to install). */
export const V8_COVERAGE_DIR = `${OUT}/v8-coverage`;
export const V8_COVERAGE_ENV: Record<string, string> = { NODE_V8_COVERAGE: V8_COVERAGE_DIR };

/** Keeps, of every report, the scripts of the project (under /work, outside node_modules): one JSON line each; then `{"reports": N}`. */
export const V8_EXTRACT_SCRIPT = `
const fs = require('fs'), path = require('path');
const dir = process.argv[2];
let names = [];
let reports = 0;
try { names = fs.readdirSync(dir); } catch {}
for (const name of names) {
  if (!name.endsWith('.json')) continue;
  let report;
  try { report = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')); } catch { continue; }
  reports += 1;
  for (const s of report.result || []) {
    if (typeof s.url === 'string' && s.url.startsWith('file:///work/') && !s.url.includes('/node_modules/')) console.log(JSON.stringify({ url: s.url, functions: s.functions }));
  }
}
console.log(JSON.stringify({ reports }));
`;

/**
 * The share of the project's own JavaScript the run executed, from the reports its processes wrote at
 * exit (a process killed at the time limit, a service, writes none). Null where nothing could be read
 * or the project has no JavaScript of its own: coverage is an account of the run, never its failure.
 */
export async function measureV8Coverage<A extends string>(steps: Steps<A>, files: ProjectFiles): Promise<RunCoverage | null> {
  await steps.session.exec(['sh', '-c', `node ${OUT}/v8_extract.js ${V8_COVERAGE_DIR} > ${OUT}/v8-scripts.jsonl 2>/dev/null; true`], { step: 'setup', timeoutS: 120 });
  const text = await steps.session.readText(`${OUT}/v8-scripts.jsonl`);
  // The extract's last line counts the reports read: none (no process exited normally) is no measure, not 0%.
  const reports = Number(/\{"reports":(\d+)\}\s*$/.exec(text ?? '')?.[1] ?? 0);
  return reports > 0 ? v8ProjectCoverage(parseV8Scripts(text!), files) : null;
}
