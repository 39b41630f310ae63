import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseReadinessStudyFile } from '../../src/cli/readinessStudyFile';
import { parseReadmeStudyFile } from '../../src/cli/readmeStudyFile';
import { readinessRecords } from '../../src/db/readiness';
import { readmeRecords } from '../../src/db/readme';
import { QUEUES } from '../../src/workers/queues';
import type { readinessStudyWorkflow } from '../../src/workflows/readiness';
import type { readmeStudyWorkflow } from '../../src/workflows/readme';
import { listReadmeInstances } from '../../src/readme/dataset';
import { REPO_ROOT, useProtocolHarness } from '../helpers/harness';
import { startModelApi, type ModelApiDouble } from '../helpers/modelApi/server';
import { baseUrlFor, KEY, KEY_ENV, PRESET_KINDS } from './presetHarness';

// Each preset's real CLI in the README and readiness protocols: its session in the repository's
// container (its tools mounted read-only, its model reached through envgap's relay only), against the
// model-API double.
const h = useProtocolHarness();
let double: ModelApiDouble;

const REPORT = `import json, sys; json.dump({"python_path": sys.executable, "python_version": sys.version.split()[0], "torch_version": None, "cuda_available": None, "gpu_count": None, "ddp_expected_ok": None, "env_tool": "venv", "env_name": "/opt/venv", "notes": "preset agent"}, open("/opt/scimlopsbench/report.json", "w"))`;
const ANSWER = [
  'The README names a package that does not exist.',
  '```json',
  '{"detected_errors": [{"error_type": "E1", "error_description": "the package is not on PyPI under that name", "fix_suggestion": "pip install inflect"}]}',
  '```',
  '```bash',
  'pip install -e .',
  '```',
].join('\n');

beforeAll(async () => {
  process.env[KEY_ENV] = KEY;
  double = await startModelApi({
    conversations: [
      // The README prompt holds the README; the readiness prompt names the report's path.
      { when: 'README Content', turns: [{ shell: 'test -f /repo/pyproject.toml && ls /repo' }, { text: ANSWER }] },
      {
        when: 'scimlopsbench',
        turns: [
          { shell: `python3 -m venv /opt/venv && /opt/venv/bin/pip install -q -r /repo/requirements.txt && /opt/venv/bin/python -c '${REPORT}'` },
          // Codex hands a long command back after a few seconds, still running: the agent waits for it, as a model would.
          // Each wait says its number: Gemini CLI and Qwen Code stop an agent that repeats one call (loop detection).
          ...Array.from({ length: 8 }, (_, n) => ({ shell: `for i in $(seq 8); do [ -f /opt/scimlopsbench/report.json ] && break; sleep 1; done; echo wait ${n + 1}; ls /opt/scimlopsbench` })),
          { text: 'The environment is ready; the report is written.' },
        ],
      },
    ],
  });
});
afterAll(() => double?.close());

const agentsYaml = () => PRESET_KINDS.map((k) => `  - kind: ${k}\n    name: ${k}\n    base_url: ${baseUrlFor(k, double)}\n    api_key_env: ${KEY_ENV}\n    timeout_s: 900\n`).join('');

test('every preset answers a README in the repository container: its final message is its answer, tokens as the double sent them', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-preset-readme-'));
  const file = path.join(dir, 'readme-presets.yaml');
  const text = `name: readme-presets
protocol: readme
data: ${path.join(REPO_ROOT, '..', 'shared', 'data', 'enconda')}
instances: [jaraco_inflect_error_readme_1_only_E1]
concurrency: 2
pass: { run: false }
agents:
${agentsYaml()}`;
  const study = parseReadmeStudyFile(text, file, listReadmeInstances);
  await h.server.client.workflow.execute<typeof readmeStudyWorkflow>('readmeStudyWorkflow', { workflowId: study.name, taskQueue: QUEUES.cpu, args: [study] });
  const records = await readmeRecords(h.database.db, study.name);
  for (const kind of PRESET_KINDS) {
    const r = records.find((x) => x.agent === kind);
    expect({ kind, record: r }).toMatchObject({ kind, record: { status: 'completed', error: null, agent_kind: kind, answer: { status: 'answered', detected_errors: [{ error_type: 'E1' }] }, score: { type: { tp: 1, fp: 0, fn: 0 } } } });
    expect(r!.answer!.tokens_in).toBeGreaterThan(0);
  }
}, 60 * 60_000);

test('every preset sets up a repository in a readiness session: the report it wrote is audited, the probes run', async () => {
  const file = path.join(REPO_ROOT, 'studies', 'readiness-presets.yaml');
  const text = `name: readiness-presets
protocol: readiness
concurrency: 2
agents:
${agentsYaml()}repos:
  - id: numpy-stats
    source: { path: ../corpus/readiness/repos/numpy-stats }
    supports: [cpu]
    entry:
      cpu: PYTHONPATH=. python scripts/run_baseline.py --device cpu
budget: { wall_s: 900, steps: 10 }
`;
  const study = parseReadinessStudyFile(text, file, false);
  await h.server.client.workflow.execute<typeof readinessStudyWorkflow>('readinessStudyWorkflow', { workflowId: study.name, taskQueue: QUEUES.cpu, args: [study] });
  const records = await readinessRecords(h.database.db, study.name);
  for (const r of records) process.stdout.write(`${r.agent}: session ${r.session?.status} (${r.session?.message ?? 'no message'}), report ${r.report ? 'written' : 'none'}, c1 ${r.stages.c1?.status}\n`);
  for (const kind of PRESET_KINDS) {
    const r = records.find((x) => x.agent === kind);
    expect({ kind, record: r }).toMatchObject({ kind, record: { status: 'completed', session: { status: 'finished', steps: 1 }, report: { python_path: '/opt/venv/bin/python', notes: 'preset agent' } } });
    expect(r!.stages.c1).toMatchObject({ status: 'success' });
    expect(r!.session!.tokens_in).toBeGreaterThan(0);
  }
}, 60 * 60_000);
