// The closing line of scripts/test.sh, from each jest run's --json results:
//   node scripts/test-summary.js TYPECHECK_EXIT TOTAL_S NAME:RESULTS_FILE:SECONDS:EXIT ...
// "tests: N passed, N failed, N skipped; suites: N failed; tiers: unit 41 s, ...". A suite that failed
// to load or in a hook counts as a failed suite; a run that left no results (stopped at its time limit,
// crashed, or never started for want of time) counts as one failed suite and says why.
const fs = require('node:fs');

const [typecheck, total, ...runs] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
let failedSuites = 0;
const tiers = [];
const problems = [];
for (const run of runs) {
  const [name, file, seconds, exit] = run.split(':');
  let r = null;
  try {
    r = file ? JSON.parse(fs.readFileSync(file, 'utf8')) : null;
  } catch {
    r = null;
  }
  if (exit === 'notime') {
    failedSuites += 1;
    tiers.push(`${name} not run (no time left)`);
    continue;
  }
  if (!r) {
    failedSuites += 1;
    problems.push(`${name}: no results (${exit === '124' || exit === '137' ? 'stopped at its time limit' : `jest exited ${exit}`})`);
    tiers.push(`${name} ${seconds} s`);
    continue;
  }
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  // Suites that failed to run at all (an import, a hook) have no failed test of their own.
  const broken = r.testResults.filter((s) => s.status === 'failed');
  failedSuites += broken.length;
  for (const s of broken) if (s.assertionResults.every((a) => a.status !== 'failed')) problems.push(`${name}: ${s.name.replace(process.cwd() + '/', '')} failed outside its tests`);
  if (exit === '124' || exit === '137') problems.push(`${name}: stopped at its time limit`);
  tiers.push(`${name} ${seconds} s`);
}
if (typecheck !== '0') problems.push('typecheck failed');
for (const p of problems) console.log(`  ${p}`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped; suites: ${failedSuites} failed; tiers: ${tiers.join(', ') || 'none'}; ${total} s in all`);
