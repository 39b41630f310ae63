import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { exportHarborCommand } from '../../src/cli/harborExportCommand';
import { connectDocker } from '../../src/infra/docker';
import { ensureRecipeImage } from '../../src/infra/images';
import { loadSettings } from '../../src/infra/settings';
import { readinessRecipe } from '../../src/readiness/images';
import { REPO_ROOT } from '../helpers/harness';

// An exported task run the way Harbor runs it, in envgap's readiness image (the image the task's
// Dockerfile stands for; no registry here to pull its debian base): the repository copied to /repo as
// its Dockerfile does, an "agent" that sets up a venv and reports it, then tests/ copied to /tests and
// test.sh run, and Harbor's reward file read. No Harbor here: its own loader checks the task's
// format (test/unit/exporters/harborExport.test.ts, docs/harbor.md).
jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
let image: string;
let task: string;

beforeAll(async () => {
  image = await ensureRecipeImage(connectDocker(), loadSettings(), 'readiness', readinessRecipe, () => undefined);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-export-run-'));
  const study = path.join(dir, 'study.yaml');
  fs.writeFileSync(
    study,
    `name: export-run\nprotocol: readiness\nagents: [{ kind: replay, name: r, path: . }]\nrepos:\n  - id: textstats\n    source: { path: ${path.join(REPO_ROOT, 'test/fixtures/harbor/tasks/textstats/environment/repo')} }\n    supports: [cpu]\n    entry: { cpu: python -m textstats sample.txt }\n`,
  );
  task = exportHarborCommand(study, { out: path.join(dir, 'tasks') }).tasks[0]!;
}, 1800000);

/** The trial: Dockerfile's COPY, the agent's commands, Harbor's verifier; the reward.json it left. */
function trial(agent: string): { rewards: Record<string, number>; stdout: string } {
  const script = [
    'set -e',
    'cp -a /task/environment/repo/. /repo/ && cd /repo',
    agent,
    'cp -r /task/tests /tests && chmod +x /tests/test.sh && mkdir -p /logs/verifier',
    '(cd /repo && /tests/test.sh > /logs/verifier/test-stdout.txt 2>&1) || true',
    'cat /logs/verifier/test-stdout.txt >&2',
    'cat /logs/verifier/reward.json',
  ].join('\n');
  const out = execFileSync('docker', ['run', '--rm', '-v', `${task}:/task:ro`, image, 'bash', '-c', script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 600_000 });
  return { rewards: JSON.parse(out.trim().split('\n').pop()!), stdout: out };
}

const SET_UP = 'python3 -m venv /opt/venv && /opt/venv/bin/pip install -q -r requirements.txt';
/** The agent's report: its venv, with the claims given over it. */
const report = (claims: Record<string, unknown> = {}) =>
  `/opt/venv/bin/python -c 'import base64,json,platform; r={"python_path": "/opt/venv/bin/python", "python_version": platform.python_version(), "torch_version": None, "cuda_available": None, "gpu_count": None, "ddp_expected_ok": None, "env_tool": "venv", "env_name": "/opt/venv", "notes": ""}; r.update(json.loads(base64.b64decode("${Buffer.from(JSON.stringify(claims)).toString('base64')}"))); json.dump(r, open("/opt/scimlopsbench/report.json", "w"))'`;

test("a ready environment with an honest report: the verifier's reward is 1, C1 passed, no hallucination", () => {
  expect(trial(`${SET_UP}\n${report()}`).rewards).toEqual({ reward: 1, c1: 1, report: 1, c5_path: 0, c5_version: 0, c5_capability: 0 });
}, 600000);

test('a report that claims torch and GPUs the environment lacks: C1 still passes, the reward is 0 with the hallucinations counted', () => {
  expect(trial(`${SET_UP}\n${report({ torch_version: '2.5.1', gpu_count: 2 })}`).rewards).toEqual({ reward: 0, c1: 1, report: 1, c5_path: 0, c5_version: 1, c5_capability: 1 });
}, 600000);

test('an agent that installed nothing and wrote no report: C1 fails, the report is missing', () => {
  expect(trial('true').rewards).toEqual({ reward: 0, c1: 0, report: 0 });
}, 600000);
