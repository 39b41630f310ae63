import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadCatalog } from '../../src/catalog/catalog';
import { importHarborGapCommand } from '../../src/cli/harborGapImportCommand';
import { importInspectCommand } from '../../src/cli/inspectImportCommand';
import { parseStudyFile } from '../../src/cli/studyFile';
import { BlobStore } from '../../src/db/blobs';
import { instanceIterations } from '../../src/db/iterations';
import { decodeJson } from '../../src/db/json';
import type { InstanceRecord } from '../../src/domain/instance';
import { QUEUES } from '../../src/workers/queues';
import type { studyWorkflow } from '../../src/workflows/study';
import { REPO_ROOT, useProtocolHarness } from '../helpers/harness';
import { csvTableEvalLog, writeEvalLog } from '../helpers/inspectEval';

// Runs made elsewhere measured D1/D2/D3 without running their agents again: a Harbor trial's final
// workspace (test/fixtures/harbor/projects) and an Inspect log's sample whose text_editor calls wrote
// a project (test/helpers/inspectEval.ts), each imported as a replay agent of a gap study and run on
// real Temporal, Postgres, Docker and PyPI. Both projects declare six, which nothing imports: a phantom.
const h = useProtocolHarness();
const records = new Map<string, InstanceRecord>();

async function measure(file: string): Promise<void> {
  const study = parseStudyFile(fs.readFileSync(file, 'utf8'), file, loadCatalog());
  await h.server.client.workflow.execute<typeof studyWorkflow>('studyWorkflow', { workflowId: study.name, taskQueue: QUEUES.cpu, args: [study] });
  const rows = await h.database.db.selectFrom('instances').select(['id', 'record']).where('study', '=', study.name).execute();
  for (const r of rows) records.set(r.id, decodeJson<InstanceRecord>(r.record));
}

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imported-gap-'));
  const fixture = path.join(REPO_ROOT, 'test/fixtures/harbor/projects');
  importHarborGapCommand([path.join(fixture, 'jobs')], { out: path.join(dir, 'harbor.yaml'), tasks: [path.join(fixture, 'tasks')], name: 'harbor-gap' });
  importInspectCommand([writeEvalLog(path.join(dir, 'csv.eval'), csvTableEvalLog())], { out: path.join(dir, 'inspect.yaml'), name: 'inspect-gap' });
  await Promise.all([measure(path.join(dir, 'harbor.yaml')), measure(path.join(dir, 'inspect.yaml'))]);
}, 900000);

test.each([
  ['a Harbor trial', 'harbor-gap/codex/python/envgap-fixtures__csvtable/1', 'harbor'],
  ['an Inspect sample', 'inspect-gap/openai-gpt-5-mini/python/csv_table-1/1', 'inspect'],
])('%s: its final workspace installs and runs as it was left; D1 declares six, D2 installs it, D3 traces only tabulate', (_, id, domain) => {
  const r = records.get(id)!;
  expect(r).toMatchObject({ status: 'success', repair_depth: 0, domain, declared: ['six', 'tabulate'], installed: ['six', 'tabulate'], traced: ['tabulate'] });
});

test("the prompt recorded is the one the agent was given (the task's instruction, the sample's input), with the harness's tokens", async () => {
  const blobs = new BlobStore(h.database.db);
  const [harbor] = await instanceIterations(h.database.db, 'harbor-gap/codex/python/envgap-fixtures__csvtable/1');
  expect(await blobs.getText(harbor!.agent!.prompt_hash)).toMatch(/^Write a Python program `\/app\/main.py`/);
  expect(harbor!.agent).toMatchObject({ tokens_in: 9120, tokens_out: 640 });
  const [inspect] = await instanceIterations(h.database.db, 'inspect-gap/openai-gpt-5-mini/python/csv_table-1/1');
  expect(await blobs.getText(inspect!.agent!.prompt_hash)).toMatch(/^Write a Python program \/root\/work\/main.py/);
  expect(inspect!.agent).toMatchObject({ tokens_in: 5210, tokens_out: 830 });
});
