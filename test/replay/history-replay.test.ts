import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WORKFLOWS_PATH } from '../../src/workers/bundle';

// Committed histories of real runs (recorded by test/e2e/quickstart-study.test.ts with
// ENVGAP_RECORD_HISTORIES=1). Replaying them against today's workflow code fails on any
// non-deterministic change, so such a change cannot land unnoticed.
const dir = path.resolve(__dirname, '../fixtures/histories');
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort();

test('committed histories exist for the study and an instance with a repair', () => {
  expect(files).toEqual(expect.arrayContaining(['quickstart.json', 'quickstart_replay_python_p_30_1.json']));
});

test('today\'s workflow code replays every committed history without non-determinism', async () => {
  const histories = files.map((f) => ({
    workflowId: f.replace(/\.json$/, ''),
    history: historyFromJSON(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))),
  }));
  const results = [];
  for await (const r of Worker.runReplayHistories({ workflowsPath: WORKFLOWS_PATH }, histories)) results.push(r);
  expect(results).toHaveLength(files.length);
  for (const r of results) expect({ id: r.workflowId, error: r.error?.message }).toEqual({ id: r.workflowId, error: undefined });
}, 120000);
