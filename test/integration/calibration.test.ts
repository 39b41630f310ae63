import { MockActivityEnvironment } from '@temporalio/testing';
import { createConfirmationRecordActivities } from '../../src/activities/confirmationRecords';
import { createRemovalTrialActivities } from '../../src/activities/removalTrial';
import { confirmationVerdictTable, expectedConfirmations, measuredConfirmations, type ConfirmationRow } from '../../src/calibration/confirmationTable';
import { envgapExpectation, layerMismatches, reportedPhantoms, type CalibratedLayer } from '../../src/calibration/expected';
import { calibrationRows, calibrationTable, expectedResults, type CalibrationResult } from '../../src/calibration/table';
import { runConfirmation } from '../../src/domain/confirmation/confirm';
import type { ConfirmationSubject } from '../../src/domain/confirmation/types';
import { isStoredNames, type NameList } from '../../src/domain/nameList';
import { DEFAULT_LIMITS } from '../../src/domain/study';
import { connectDocker } from '../../src/infra/docker';
import { loadSettings } from '../../src/infra/settings';
import { calibrationFiles, calibrationProjects, publishedCalibrationTable, publishedConfirmationTable } from '../helpers/calibration';
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
const LIMITS = { ...DEFAULT_LIMITS, run_timeout_s: 120 };
/** What phantom confirmation needs of each project's execution: its stored project, run and layers. */
const subjects = new Map<string, ConfirmationSubject>();

async function names(list: NameList | null | undefined): Promise<string[] | null> {
  if (list == null) return null;
  return isStoredNames(list) ? h.blobs.getJson<string[]>(list.blob) : list;
}

test.each(projects.map((p) => [p.project, p] as const))('calibration %s: every layer is the truth or a known limitation', async (_name, p) => {
  const files = await calibrationFiles(p);
  const instanceId = `calibration/replay/${p.project.replace('/', '/calib-')}/1`;
  const { outcome, log, filesHash } = await h.execute(instanceId, p.truth.language, files, LIMITS, undefined, { declare: true });
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
  // Bloat is left out (installed: null): the truth judges declared names, and Maven's exclusions of every
  // installed jar would add a build per name.
  subjects.set(p.project, { instanceId, language: p.truth.language, filesHash, ...(outcome.runSpec ? { run: outcome.runSpec } : {}), limits: LIMITS, declared: layers.declared!, installed: null, traced: layers.traced! });
}, 600000);

test('the precision and recall measured are those docs/ecosystems.md publishes', () => {
  if (observed.length !== projects.length) throw new Error(`only ${observed.length} of ${projects.length} calibration projects ran`);
  const measured = calibrationTable(calibrationRows(observed));
  process.stdout.write(`tracer calibration, measured:\n${measured}\n`);
  expect(measured).toBe(calibrationTable(calibrationRows(expectedResults(projects))));
  expect(publishedCalibrationTable()).toBe(measured);
});

// Phantom confirmation (issue 26 item 1, docs/confirmation.md) on the same projects: the confirmation the
// workflows run (src/domain/confirmation/confirm.ts) over the real plan and removal-trial activities,
// called directly, each trial a fresh sandbox. Every phantom envgap reports must be tried, and each
// verdict (and how a needed one broke) must be what expected.json says.
const MAX_TRIALS = 12;
const confirmed = new Map<string, ConfirmationRow[]>();

async function confirm(subject: ConfirmationSubject) {
  const blobs = h.blobs;
  const trials = createRemovalTrialActivities({ blobs, docker: connectDocker(), settings: loadSettings() });
  const records = createConfirmationRecordActivities({ db: h.database.db, blobs });
  return runConfirmation(`${subject.instanceId}/confirm-phantoms`, subject, MAX_TRIALS, {
    plan: (s) => records.planConfirmation(s),
    trial: (input) => new MockActivityEnvironment().run(trials.removalTrial, input),
    faultOf: () => null,
  });
}

test.each(projects.map((p) => [p.project, p] as const))('calibration %s: removing each phantom gives the expected verdict', async (_name, p) => {
  const subject = subjects.get(p.project);
  if (!subject) throw new Error(`calibration ${p.project}: its execution did not pass, so there is nothing to confirm`);
  const phantoms = reportedPhantoms(subject.declared as string[], subject.traced as string[]);
  const started = Date.now();
  const fields = await confirm(subject);
  const c = fields.confirmation;
  const why = Object.entries(c.phantom.broke).map(([n, b]) => `  ${n}: ${b.how}: ${b.excerpt.split('\n')[0]}\n`).join('');
  process.stdout.write(`confirmation ${p.project}: ${c.trials} trial(s), ${(c.duration_ms / 1000).toFixed(1)} s of trials, ${((Date.now() - started) / 1000).toFixed(1)} s in all\n${why}`);
  expect({ project: p.project, error: c.error ?? null, untried: c.phantom.untried }).toEqual({ project: p.project, error: null, untried: [] });
  if (phantoms.length > 0) expect(c.baseline).toEqual({ reproduced: true });
  const measured = measuredConfirmations(p, phantoms, fields.phantom_check ?? {}, c.phantom.broke);
  const expected = expectedConfirmations([p]);
  if (confirmationVerdictTable(measured) !== confirmationVerdictTable(expected)) {
    throw new Error(`calibration ${p.project}: removal gave\n${confirmationVerdictTable(measured)}\nnot\n${confirmationVerdictTable(expected)}\nbroke: ${JSON.stringify(c.phantom.broke, null, 1)}`);
  }
  confirmed.set(p.project, measured);
}, 900000);

test('the confirmation verdicts measured are those docs/ecosystems.md publishes', () => {
  if (confirmed.size !== projects.length) throw new Error(`only ${confirmed.size} of ${projects.length} calibration projects were confirmed`);
  const measured = confirmationVerdictTable(projects.flatMap((p) => confirmed.get(p.project)!));
  process.stdout.write(`phantom confirmation on the calibration suite, measured:\n${measured}\n`);
  expect(measured).toBe(confirmationVerdictTable(expectedConfirmations(projects)));
  expect(publishedConfirmationTable()).toBe(measured);
});
