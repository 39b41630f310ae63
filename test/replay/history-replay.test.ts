import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WORKFLOWS_PATH } from '../../src/workers/bundle';

// Committed histories of real runs (recorded by test/e2e/quickstart-study.test.ts with
// ENVGAP_RECORD_HISTORIES=SET), one set per deliberate change of the workflow code; each set holds the
// study's history and two of its instances' (one with a repair). Replaying them against today's code
// fails on any non-deterministic change, so such a change cannot land unnoticed, and a study begun on
// older code can still finish on this one. The instance histories of the sets before
// `answer-with-execution` took paths of the instance workflow that are retired: they are kept under
// `retired/` and not replayed here (test/fixtures/histories/retired/README.md names the build that
// replays them); those sets' study histories still replay.
const dir = path.resolve(__dirname, '../fixtures/histories');
const RETIRED = 'retired/';
const files = fs
  .readdirSync(dir, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.json') && !f.startsWith(RETIRED))
  .sort();
const retired = fs.readdirSync(path.join(dir, RETIRED), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json'));

/** Instances started for revision 1 (no patch), and before revisions, asking the then newest patch, now deprecated. */
const INSTANCE_SETS = ['answer-with-execution', 'instance-revision'];
/** Sets whose instances took retired paths: their study histories replay, their instance histories are retired. */
const RETIRED_SETS = ['before-one-extraction', 'one-extraction', 'layers-with-execution', 'declared-with-execution', 'final-execution-records'];

test('committed histories exist for the study in each set, and for an instance with a repair in each set still replayed', () => {
  for (const set of [...RETIRED_SETS, ...INSTANCE_SETS]) expect(files).toContain(`${set}/quickstart.json`);
  for (const set of INSTANCE_SETS) expect(files).toContain(`${set}/quickstart_replay_python_p_30_1.json`);
  for (const set of RETIRED_SETS) expect(retired).toContain(path.join(set, 'quickstart_replay_python_p_30_1.json'));
  expect(fs.existsSync(path.join(dir, RETIRED, 'README.md'))).toBe(true);
});

test('today\'s workflow code replays every committed history but the retired ones without non-determinism', async () => {
  const histories = files.map((f) => ({
    workflowId: f.replace(/\.json$/, '').replace(/\//g, ':'),
    history: historyFromJSON(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))),
  }));
  const results = [];
  for await (const r of Worker.runReplayHistories({ workflowsPath: WORKFLOWS_PATH }, histories)) results.push(r);
  expect(results).toHaveLength(files.length);
  for (const r of results) expect({ id: r.workflowId, error: r.error?.message }).toEqual({ id: r.workflowId, error: undefined });
}, 120000);
