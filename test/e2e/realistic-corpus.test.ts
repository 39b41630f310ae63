import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadCatalog } from '../../src/catalog/catalog';
import { parseStudyFile } from '../../src/cli/studyFile';
import { BlobStore } from '../../src/db/blobs';
import { instanceIterations, type IterationRow } from '../../src/db/iterations';
import { decodeJson } from '../../src/db/json';
import { isBinaryContent, type ProjectFiles } from '../../src/domain/files';
import type { InstanceRecord } from '../../src/domain/instance';
import { isEnvironmentFailure } from '../../src/metrics/instances';
import { QUEUES } from '../../src/workers/queues';
import type { studyWorkflow } from '../../src/workflows/study';
import { REPO_ROOT, useProtocolHarness } from '../helpers/harness';

// The realistic corpus (corpus/realistic, issue 9): projects written as agents write them, one per case
// that real agent output misled the harness with. Each case below says what it was built to be; the
// record must say the same, and a non-success must be blamed where its cause lies.
const h = useProtocolHarness();
let records: Map<string, InstanceRecord>;
let study: ReturnType<typeof parseStudyFile>;

type Blame = 'agent' | 'environment';
interface Case {
  what: string;
  record: Partial<InstanceRecord>;
  /** Who a non-success is to be blamed on, by how the project was built. */
  blame?: Blame;
}

const CASES: Record<string, Case> = {
  'python/p_28': { what: 'a Flask server', record: { status: 'success', run_kind: 'service' } },
  'javascript/p_28': { what: 'an Express server', record: { status: 'success', run_kind: 'service' } },
  'java/p_28': { what: "a server on the JDK's HttpServer", record: { status: 'success', run_kind: 'service', traced: ['gson'] } },
  'python/p_01': { what: 'a program that needs an argument (envgap.run.json)', record: { status: 'success', repair_depth: 0, traced: ['tabulate'] } },
  'javascript/p_01': { what: 'npm start with an argument (envgap.run.json)', record: { status: 'success', traced: ['csv-parse'] } },
  'java/p_01': { what: 'an argument, and junit in test scope', record: { status: 'success', declared: ['commons-csv', 'junit'], declared_test: ['junit'], installed: ['commons-codec', 'commons-csv', 'commons-io'], installed_test: ['hamcrest-core', 'junit'] } },
  'python/p_15': { what: 'input on stdin (.replay.json run), no manifest', record: { status: 'success', manifest_status: 'absent', declared: [], traced: [] } },
  'python/p_49': { what: 'a program beside tests.py, both with a __main__ guard', record: { status: 'success', repair_depth: 0 } },
  'javascript/p_30': { what: 'a start script naming a missing file, main present', record: { status: 'success', repair_depth: 0, traced: ['marked'] } },
  'javascript/p_19': { what: "sharp: npm skips the other platforms' optional packages", record: { status: 'success' } },
  'python/p_21': { what: 'a binary asset (PNG) read with Pillow', record: { status: 'success', traced: ['pillow'] } },
  'python/p_27': { what: 'cannot import name X from the installed requests', record: { status: 'failed', first_error_class: 'Runtime', agent_gave_up: true, installed: ['certifi', 'charset-normalizer', 'idna', 'requests', 'urllib3'] }, blame: 'agent' },
  'java/p_02': { what: 'cannot find symbol in com.google.gson, its jar on the classpath', record: { status: 'success', repair_depth: 1, first_error_class: 'Build' } },
  'python/p_25': { what: 'the nmap executable missing, apt.txt at iteration 1 (a legacy sdist install)', record: { status: 'success', repair_depth: 1, first_error_class: 'SystemLib', traced: ['python-nmap'] } },
  'python/p_24': { what: 'a download from a host outside the package indexes', record: { status: 'failed', first_error_class: 'Environment', environment: { rule: 'dns', host: 'downloads.example-data.org' } }, blame: 'environment' },
  'javascript/p_24': { what: 'a fetch of a host outside the package indexes', record: { status: 'failed', first_error_class: 'Environment', environment: { rule: 'dns', host: 'cdn.example-files.net' } }, blame: 'environment' },
  'python/p_10': { what: 'Redis, a service nobody started', record: { status: 'failed', first_error_class: 'Environment', environment: { rule: 'redis-connection', service: 'Redis' } }, blame: 'environment' },
  'python/p_30': { what: 'a missing dependency fixed by a person', record: { status: 'success', repair_depth: 1, first_error_class: 'MissingDep', human_iterations: [1] } },
  'javascript/p_10': { what: "lodash required, never declared (Debian's node modules no longer hide it)", record: { status: 'failed', first_error_class: 'MissingDep', agent_gave_up: true }, blame: 'agent' },
};

const id = (key: string) => `${study.name}/replay/${key}/1`;
const iterations = (key: string): Promise<IterationRow[]> => instanceIterations(h.database.db, id(key));

beforeAll(async () => {
  const file = path.join(REPO_ROOT, 'studies/realistic.yaml');
  study = parseStudyFile(fs.readFileSync(file, 'utf8'), file, loadCatalog());
  const summary = await h.server.client.workflow.execute<typeof studyWorkflow>('studyWorkflow', { workflowId: study.name, taskQueue: QUEUES.cpu, args: [study] });
  expect(summary.progress.done).toBe(Object.keys(CASES).length);
  const rows = await h.database.db.selectFrom('instances').selectAll().execute();
  records = new Map(rows.map((r) => {
    const rec = decodeJson<InstanceRecord>(r.record);
    return [`${rec.language}/${rec.task}`, rec];
  }));
}, 900000);

test('every case is recorded once, as it was built to be', () => {
  expect([...records.keys()].sort()).toEqual(Object.keys(CASES).sort());
  for (const [key, c] of Object.entries(CASES)) expect({ key, ...records.get(key) }).toMatchObject({ key, ...c.record });
});

test('each non-success is blamed where its cause lies: the agent, or what the machine cannot give; none on the harness', () => {
  const blamed = [...records.entries()]
    .filter(([, r]) => r.status !== 'success')
    .map(([key, r]) => [key, r.status === 'error' ? 'harness' : isEnvironmentFailure(r) ? 'environment' : 'agent'] as const);
  expect(Object.fromEntries(blamed)).toEqual(Object.fromEntries(Object.entries(CASES).filter(([, c]) => c.blame).map(([key, c]) => [key, c.blame])));
  const agent = blamed.filter(([, b]) => b === 'agent').length;
  process.stdout.write(`realistic corpus: ${blamed.length} non-successes, ${agent} attributed to the agent (${((100 * agent) / blamed.length).toFixed(0)}%)\n`);
});

test('the entry chosen, and why: the start-script fallback, and the program beside tests.py', async () => {
  const [js] = await iterations('javascript/p_30');
  expect(js!.execution!.entry).toEqual({ command: 'node index.js', reason: 'start script names server.js, which is absent; package.json main index.js' });
  const [py] = await iterations('python/p_49');
  expect(py!.execution!.entry!.command).toBe('python cron.py');
  expect(py!.execution!.entry!.reason).toContain('tests.py is a test module');
});

test('how each iteration was run: arguments and stdin from envgap.run.json and .replay.json', async () => {
  expect((await iterations('python/p_01'))[0]!.execution).toMatchObject({ runSpec: { args: ['data/sample.csv'] }, entry: { command: 'python main.py data/sample.csv' } });
  expect((await iterations('javascript/p_01'))[0]!.execution).toMatchObject({ runSpec: { args: ['data/sample.csv'] }, entry: { command: 'node src/cli.js data/sample.csv' } });
  expect((await iterations('java/p_01'))[0]!.execution).toMatchObject({ runSpec: { args: ['data/sample.csv'] } });
  expect((await iterations('python/p_15'))[0]!.execution).toMatchObject({ runSpec: { stdin: 'hunter2\nCorrect-Horse-Battery-42\n' } });
  const log = await new BlobStore(h.database.db).getText((await iterations('python/p_15'))[0]!.execution!.artefacts.log);
  expect(log).toMatch(/\*{7}: \d+\.\d bits, weak/);
});

test('binary assets are kept in the project and reach the container byte for byte', async () => {
  const blobs = new BlobStore(h.database.db);
  for (const key of ['python/p_21', 'javascript/p_19']) {
    const files = await blobs.getJson<ProjectFiles>((await iterations(key))[0]!.filesHash!);
    expect(isBinaryContent(files['assets/gradient.png']!)).toBe(true);
  }
  const log = await blobs.getText((await iterations('python/p_21'))[0]!.execution!.artefacts.log);
  expect(log).toContain('assets/gradient.png: 64x48');
});

test("sharp: D2 is what npm installed, not the other platforms' optional packages it skipped", () => {
  const r = records.get('javascript/p_19')!;
  expect(r.installed).toEqual(expect.arrayContaining(['sharp', '@img/sharp-linux-x64', '@img/sharp-libvips-linux-x64']));
  expect(r.installed!.filter((n) => /darwin|win32|wasm|arm|musl/.test(n))).toEqual([]);
  expect(r.traced).toEqual(expect.arrayContaining(['sharp', '@img/sharp-linux-x64']));
});
