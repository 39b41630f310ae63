import { envgapExpectation, layerMismatches, reportedPhantoms, type CalibratedLayer } from '../../src/calibration/expected';
import { calibrationRows, calibrationTable, expectedResults, type CalibrationResult } from '../../src/calibration/table';
import { isStoredNames, type NameList } from '../../src/domain/nameList';
import { calibrationFiles, calibrationProjects, publishedCalibrationTable } from '../helpers/calibration';
import { useExecutionHarness } from '../helpers/execution';

// The tracer calibration suite (issue 26 item 3; docs/ecosystems.md, "Tracer calibration"): small
// projects with known truth, one per language and a few more where a case needs a build of its own,
// run through the real executeProject activity (the runners, strace, the layers). Each layer must be
// what expected.json says: the truth, except where a `known` entry says envgap is wrong today and why.
// The D3 and phantom precision and recall that docs/ecosystems.md publishes follow from these
// expectations (test/unit/calibration/table.test.ts checks the page against them).
const h = useExecutionHarness();
const projects = calibrationProjects();
const observed: CalibrationResult[] = [];

async function names(list: NameList | null | undefined): Promise<string[] | null> {
  if (list == null) return null;
  return isStoredNames(list) ? h.blobs.getJson<string[]>(list.blob) : list;
}

test.each(projects.map((p) => [p.project, p] as const))('calibration %s: every layer is the truth or a known limitation', async (_name, p) => {
  const files = await calibrationFiles(p);
  const { outcome, log } = await h.execute(`calibration/replay/${p.project.replace('/', '/calib-')}/1`, p.truth.language, files, { run_timeout_s: 120 }, undefined, { declare: true });
  if (!outcome.success) throw new Error(`calibration ${p.project} did not succeed (${outcome.failedStep}, ${outcome.errorClass}):\n${log.slice(-4000)}`);
  const layers: Record<CalibratedLayer, string[] | null> = {
    declared: await names(outcome.declared?.names),
    installed: await names(outcome.layers?.installed),
    traced: await names(outcome.layers?.traced),
    traced_build: await names(outcome.layers?.tracedBuild),
    phantoms: null,
  };
  layers.phantoms = layers.declared && layers.traced ? reportedPhantoms(layers.declared, layers.traced) : null;
  const problems: string[] = [];
  for (const layer of Object.keys(layers) as CalibratedLayer[]) {
    const expectation = envgapExpectation(p.truth, layer);
    if (expectation === null) continue;
    for (const m of layerMismatches(expectation, layers[layer])) problems.push(`${layer}: ${m}`);
  }
  // The run's coverage (issue 26 item 2): the project's own code as counted by hand, executed or not.
  const counts = (c: { total: number; executed: number; files: number; files_executed: number } | undefined) => (c ? `${c.executed} of ${c.total}, ${c.files_executed} of ${c.files} files` : 'none');
  if (counts(outcome.coverage) !== counts(p.truth.coverage)) problems.push(`coverage: ${counts(outcome.coverage)}, not ${counts(p.truth.coverage)}`);
  if (problems.length > 0) {
    throw new Error(`calibration ${p.project}: envgap is neither right nor wrong as expected.json says:\n  ${problems.join('\n  ')}\nenvgap gave: ${JSON.stringify(layers)}`);
  }
  observed.push({ project: p.project, truth: p.truth, declared: layers.declared!, traced: layers.traced!, tracedBuild: layers.traced_build });
}, 600000);

test('the precision and recall measured are those docs/ecosystems.md publishes', () => {
  if (observed.length !== projects.length) throw new Error(`only ${observed.length} of ${projects.length} calibration projects ran`);
  const measured = calibrationTable(calibrationRows(observed));
  process.stdout.write(`tracer calibration, measured:\n${measured}\n`);
  expect(measured).toBe(calibrationTable(calibrationRows(expectedResults(projects))));
  expect(publishedCalibrationTable()).toBe(measured);
});
