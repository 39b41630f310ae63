import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WORKFLOWS_PATH } from '../../src/workers/bundle';

// Committed histories of real runs (recorded by test/e2e/quickstart-study.test.ts with
// ENVGAP_RECORD_HISTORIES=SET), one set per deliberate change of the workflow code: `before-one-extraction`
// ran the extraction as three local activities, `one-extraction` as one (src/workflows/instance.ts,
// ONE_EXTRACTION), `layers-with-execution` takes them from the execution (LAYERS_WITH_EXECUTION),
// `declared-with-execution` takes D1 from the first execution too and calls a replay agent as a local activity
// (D1_WITH_EXECUTION), `final-execution-records` has the execution that ends an instance store its record
// (RECORD_WITH_FINAL_EXECUTION), `answer-with-execution` has a replay agent answer in the activity that executes
// its answer (ANSWER_WITH_EXECUTION), `instance-revision` has instances carry the workflow revision they were started
// for and ask no patch (INSTANCE_REVISION in src/domain/study.ts). Replaying them all against today's code fails on any non-deterministic change, so
// such a change cannot land unnoticed, and a study begun on older code can still finish on this one.
const dir = path.resolve(__dirname, '../fixtures/histories');
const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json')).sort();

test('committed histories exist for the study and an instance with a repair, in each set', () => {
  for (const set of ['before-one-extraction', 'one-extraction', 'layers-with-execution', 'declared-with-execution', 'final-execution-records', 'answer-with-execution', 'instance-revision']) {
    expect(files).toEqual(expect.arrayContaining([`${set}/quickstart.json`, `${set}/quickstart_replay_python_p_30_1.json`]));
  }
});

test('today\'s workflow code replays every committed history without non-determinism', async () => {
  const histories = files.map((f) => ({
    workflowId: f.replace(/\.json$/, '').replace(/\//g, ':'),
    history: historyFromJSON(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))),
  }));
  const results = [];
  for await (const r of Worker.runReplayHistories({ workflowsPath: WORKFLOWS_PATH }, histories)) results.push(r);
  expect(results).toHaveLength(files.length);
  for (const r of results) expect({ id: r.workflowId, error: r.error?.message }).toEqual({ id: r.workflowId, error: undefined });
}, 120000);
