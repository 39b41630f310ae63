import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadCatalog } from '../../src/catalog/catalog';
import { parseStudyFile } from '../../src/cli/studyFile';
import type { InstanceRecord } from '../../src/domain/instance';
import { computeMetrics } from '../../src/metrics';
import { QUEUES } from '../../src/workers/queues';
import type { studyWorkflow } from '../../src/workflows/study';
import { REPO_ROOT, useProtocolHarness } from '../helpers/harness';

// The static baseline beside the recorded agent on the same code (studies/baseline.yaml, cut to four
// tasks): real executions of the manifests it inferred from the imports.
const h = useProtocolHarness();
let records: Map<string, InstanceRecord>;

beforeAll(async () => {
  const file = path.join(REPO_ROOT, 'studies/baseline.yaml');
  const text = fs
    .readFileSync(file, 'utf8')
    .replace('name: baseline', 'name: baseline-test')
    .replace('languages: [python, java, javascript, cpp]', 'languages: [python, javascript]')
    .replace(/tasks:\n(  .*\n)+/, 'tasks:\n  python: [p_13, p_30]\n  javascript: [p_49]\n');
  const study = parseStudyFile(text, file, loadCatalog());
  const summary = await h.server.client.workflow.execute<typeof studyWorkflow>('studyWorkflow', { workflowId: study.name, taskQueue: QUEUES.cpu, args: [study] });
  expect(summary.progress.done).toBe(6);
  const rows = await h.database.db.selectFrom('instances').selectAll().execute();
  records = new Map(rows.map((r) => {
    const rec = r.record as unknown as InstanceRecord;
    return [`${rec.agent}/${rec.language}/${rec.task}`, rec];
  }));
}, 600000);

test('python p_30: the import scan declares markdown, which the agent forgot and had to repair', () => {
  expect(records.get('replay/python/p_30')).toMatchObject({ status: 'success', repair_depth: 1 });
  expect(records.get('static/python/p_30')).toMatchObject({ status: 'success', first_attempt_success: true, repair_depth: 0 });
  expect(records.get('static/python/p_30')?.declared).toEqual(expect.arrayContaining(['markdown', 'pygments']));
});

test('python p_13 and javascript p_49: the agent\'s phantoms (colorama, moment) are not the baseline\'s', () => {
  expect(records.get('replay/python/p_13')?.declared).toContain('colorama');
  expect(records.get('static/python/p_13')).toMatchObject({ status: 'success', declared: ['click'] });
  expect(records.get('replay/javascript/p_49')?.declared).toContain('moment');
  expect(records.get('static/javascript/p_49')?.declared).toEqual(['cron-parser']);
  const m = computeMetrics([...records.values()]);
  const phantom = (agent: string, language: string) => m.cells.find((c) => c.agent === agent && c.language === language)?.phantom ?? null;
  expect(phantom('static', 'python')!).toBeLessThan(phantom('replay', 'python')!);
});

test('the baseline\'s answer, like a recording\'s, is read in the activity that executes it, which also stores the record: one activity, no local ones, no patch asked', async () => {
  const history = await h.server.client.workflow.getHandle('baseline-test/static/python/p_30/1').fetchHistory();
  const events = history.events ?? [];
  const scheduled = events.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);
  expect(scheduled).toEqual(['answerAndExecute']);
  const markers = events.map((e) => e.markerRecordedEventAttributes?.markerName).filter(Boolean);
  // Started for the current revision (src/domain/study.ts): no patch marker, no search attribute upsert.
  expect(markers).toEqual([]);
  expect(events.filter((e) => e.upsertWorkflowSearchAttributesEventAttributes)).toHaveLength(0);
});
