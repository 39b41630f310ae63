import { truthOfLayer } from '../../../src/calibration/expected';
import { calibrationRows, calibrationTable, expectedResults } from '../../../src/calibration/table';
import { confirmationVerdictTable, expectedConfirmations, measuredConfirmations } from '../../../src/calibration/confirmationTable';
import { calibrationProjects, publishedCalibrationTable, publishedConfirmationTable } from '../../helpers/calibration';
import { truth } from './truthFixture';

// The calibration suite's truths (test/fixtures/calibration) give the table docs/ecosystems.md
// publishes; test/integration/calibration.test.ts checks that envgap really gives what they expect.
const projects = calibrationProjects();

test('the table in docs/ecosystems.md is the one the calibration projects give', () => {
  const table = calibrationTable(calibrationRows(expectedResults(projects)));
  expect(publishedCalibrationTable()).toBe(table);
});

test('every language has a calibration project, and every case names what its truth judges', () => {
  expect(new Set(projects.map((p) => p.truth.language))).toEqual(new Set(['python', 'java', 'javascript', 'cpp']));
  for (const { project, truth: t } of projects) {
    const judged = new Set([...t.declared, ...t.installed.includes, ...t.run.used, ...t.run.unused, ...(t.build?.used ?? []), ...Object.values(t.declared_as)]);
    for (const c of t.cases) for (const name of c.names) expect({ project, case: c.id, name, judged: judged.has(name) }).toEqual({ project, case: c.id, name, judged: true });
    for (const k of t.known) expect({ project, known: k.name, inTruth: truthOfLayer(t, k.layer) !== null }).toEqual({ project, known: k.name, inTruth: true });
  }
});

test('rows pool the projects of a language and leave out languages without one', () => {
  const t = truth();
  const rows = calibrationRows([
    { project: 'python/a', truth: t, declared: ['a', 'b', 'pyyaml'], traced: ['a', 'pyyaml', 'dep'], tracedBuild: null },
    { project: 'python/b', truth: t, declared: ['a', 'b', 'pyyaml'], traced: ['a', 'b'], tracedBuild: null },
  ]);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ language: 'python', projects: 2, cases: 2, traced: { tp: 4, fp: 1, fn: 2 }, phantoms: { tp: 1, fp: 1, fn: 1 }, built: null, known: 0 });
  expect(calibrationTable(rows)).toContain('| Python | 2 | 2 | 4 / 1 / 2 | 0.80 | 0.67 | 1 / 1 / 1 | 0.50 | 0.50 | – | 0 |');
});

test('the confirmation verdicts in docs/ecosystems.md are the ones the truths give for the phantoms envgap reports', () => {
  const rows = expectedConfirmations(projects);
  process.stdout.write(`${confirmationVerdictTable(rows)}\n`);
  expect(publishedConfirmationTable()).toBe(confirmationVerdictTable(rows));
  // Every phantom envgap reports has a verdict, and every needed one says how it breaks.
  for (const r of rows) expect({ name: r.name, removal: r.removal, how: r.removal === 'needed' ? r.how !== null : r.how === null }).toEqual({ name: r.name, removal: r.removal, how: true });
});

test('a measured confirmation: untried where phantom_check has no verdict, how only for needed names', () => {
  const t = truth({ confirmation_broke: { a: 'run-exit-differs' } });
  const p = { project: 'python/x', truth: t };
  const rows = measuredConfirmations(p, ['b', 'a', 'pyyaml'], { a: 'needed', b: 'unneeded' }, { a: { how: 'run-exit-differs' } });
  expect(rows.map((r) => [r.name, r.usedByRun, r.removal, r.how, r.cases])).toEqual([['a', true, 'needed', 'run-exit-differs', ['c']], ['b', false, 'unneeded', null, []], ['pyyaml', true, 'untried', null, []]]);
  expect(confirmationVerdictTable(rows).split('\n')[2]).toBe('| Python | x | a | yes | needed | run-exit-differs | c |');
  expect(expectedConfirmations([p]).map((r) => [r.name, r.removal, r.how])).toEqual([['b', 'unneeded', null]]);
});
