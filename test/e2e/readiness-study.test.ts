import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { parseReadinessStudyFile } from '../../src/cli/readinessStudyFile';
import { BlobStore } from '../../src/db/blobs';
import { readinessRecords } from '../../src/db/readiness';
import type { ReadinessRecord } from '../../src/domain/readiness';
import { connectDocker } from '../../src/infra/docker';
import { QUEUES } from '../../src/workers/queues';
import type { readinessStudyWorkflow } from '../../src/workflows/readiness';
import { REPO_ROOT, useProtocolHarness } from '../helpers/harness';

// The readiness quickstart end to end on this CPU machine: real Temporal, Postgres, Docker, pip, gcc
// and pyright; recorded sessions replayed step by step in the repositories' containers, frozen, probed.
const h = useProtocolHarness();
let records: Map<string, ReadinessRecord>;
/** The numpy-stats repository of the readiness corpus, as a study file lists it. */
const NUMPY_STATS_REPO = `repos:
  - id: numpy-stats
    source: { path: ../corpus/readiness/repos/numpy-stats }
    supports: [cpu]
    entry:
      cpu: PYTHONPATH=. python scripts/run_baseline.py --device cpu
`;
const file = path.join(REPO_ROOT, 'studies/readiness.yaml');

async function runStudy(text: string) {
  const study = parseReadinessStudyFile(text, file, false);
  await h.server.client.workflow.execute<typeof readinessStudyWorkflow>('readinessStudyWorkflow', { workflowId: study.name, taskQueue: QUEUES.cpu, args: [study] });
  return new Map((await readinessRecords(h.database.db, study.name)).map((r) => [r.repo, r]));
}

beforeAll(async () => {
  records = await runStudy(fs.readFileSync(file, 'utf8'));
}, 900000);

test('a ready environment: C0 resolves every import (the repository\'s own package too), C1 runs, C5 finds the report honest', () => {
  const r = records.get('numpy-stats')!;
  expect(r).toMatchObject({ status: 'completed', session: { status: 'finished', steps: 5, budget_exceeded: null }, violations: [], report: { python_path: '/opt/venv/bin/python', env_tool: 'venv' } });
  expect(r.stages.c0).toMatchObject({ status: 'success', total: 4, missing: [] });
  expect(r.stages.c1).toMatchObject({ status: 'success', exit_code: 0 });
  expect(r.stages.c5).toMatchObject({ status: 'success', path: 0, version: 0, capability: 0 });
  expect(r.env_size_bytes).toBeGreaterThan(10_000_000);
  expect(r.time_to_ready_s).toBeGreaterThan(0);
  // The sandbox's limits that applied: the study file's, every other at the readiness default; none reached.
  expect(r.session!.sandbox).toMatchObject({ memory_mb: 4096, cpus: 2, pids: 1024, disk_mb: 32768, shm_mb: 4096, network: 'envgap-sandbox', disk: 'layer-fs', caches: 'none', gpus: false, limits_hit: [] });
});

test('an undeclared tool on the default path: C1 fails as deps; pyright resolves tqdm to its bundled stubs only (missing_source)', () => {
  const r = records.get('undeclared-tool')!;
  expect(r.stages.c1).toMatchObject({ status: 'failure', failure_category: 'deps' });
  expect(r.stages.c1.error_excerpt).toContain("No module named 'tqdm'");
  expect(r.stages.c0).toMatchObject({ total: 3, missing: [], missing_source: ['tqdm'] });
});

test('on a machine with no GPU worker, C2 and C3 are skipped as no_gpu_worker; unsupported stages as not_applicable', () => {
  for (const r of records.values()) expect(r.stages.c2).toMatchObject({ status: 'skipped', skip_reason: 'no_gpu_worker' });
  expect(records.get('undeclared-tool')!.stages.c3).toMatchObject({ status: 'skipped', skip_reason: 'no_gpu_worker' });
  expect(records.get('numpy-stats')!.stages.c3).toMatchObject({ status: 'skipped', skip_reason: 'not_applicable' });
  expect(records.get('cext-kernels')!.stages.c4).toMatchObject({ status: 'skipped', skip_reason: 'no_gpu_worker' });
});

test('a hallucinating report and a modified tracked file: each hallucination named, the edit recorded', () => {
  const r = records.get('cext-kernels')!;
  expect(r.violations).toEqual([{ path: 'config.yaml', change: 'modified' }]);
  expect(r.stages.c5).toMatchObject({ status: 'failure', path: 1, capability: 3 });
  expect(r.stages.c5.findings.map((f) => f.field).sort()).toEqual(['cuda_available', 'ddp_expected_ok', 'gpu_count', 'python_path']);
  // The entry runs with the report's interpreter, which does not exist.
  expect(r.stages.c1).toMatchObject({ status: 'failure', failure_category: 'entrypoint_not_found' });
});

test('nothing is left behind: no container of the study, no frozen image', async () => {
  const docker = connectDocker();
  const containers = await docker.listContainers({ all: true, filters: { label: ['envgap.instance'] } });
  expect(containers.filter((c) => (c.Labels['envgap.instance'] ?? '').startsWith('readiness-quickstart/'))).toEqual([]);
  const images = await docker.listImages({ filters: { reference: ['envgap-frozen'] } });
  expect(images).toEqual([]);
});

test('an agent over its step budget is stopped there: session timeout, the agent\'s result, and the probes still run', async () => {
  const text = fs.readFileSync(file, 'utf8').replace('name: readiness-quickstart', 'name: readiness-budget').replace('budget: { wall_s: 1800, steps: 50 }', 'budget: { wall_s: 1800, steps: 2 }');
  const r = (await runStudy(text.replace(/repos:[\s\S]*?- id: undeclared-tool/, 'repos:\n  - id: undeclared-tool')))
    .get('undeclared-tool')!;
  expect(r).toMatchObject({ status: 'completed', session: { status: 'timeout', budget_exceeded: 'steps', steps: 2 } });
  expect(r.stages.c5).toMatchObject({ status: 'failure', failure_category: 'missing_report' });
}, 600000);

test("a cli agent works inside the container: installed once into its image, its named variables from the worker's environment only, its output redacted", async () => {
  process.env.ENVGAP_TEST_AGENT_TOKEN = 'tok-0123456789abcdefSECRETvalue';
  const study = `name: readiness-cli
protocol: readiness
agents:
  - kind: cli
    name: shell-agent
    env: [ENVGAP_TEST_AGENT_TOKEN]
    install: |
      mkdir -p /opt/agent
      cat > /opt/agent/setup <<'SH'
      #!/bin/bash
      set -e
      test -s "$1"
      echo "agent started with token $ENVGAP_TEST_AGENT_TOKEN"
      python3 -m venv /opt/venv
      /opt/venv/bin/pip install -q -r "$REPO_ROOT/requirements.txt"
      /opt/venv/bin/python - <<'PY'
      import json, sys
      json.dump({"python_path": sys.executable, "python_version": sys.version.split()[0], "torch_version": None, "cuda_available": None, "gpu_count": None, "ddp_expected_ok": None, "env_tool": "venv", "env_name": "/opt/venv", "notes": "shell agent"}, open("/opt/scimlopsbench/report.json", "w"))
      PY
      SH
      chmod +x /opt/agent/setup
    command: /opt/agent/setup {prompt_file}
${NUMPY_STATS_REPO}budget: { wall_s: 900, steps: 10 }
`;
  const r = (await runStudy(study)).get('numpy-stats')!;
  expect(r).toMatchObject({ status: 'completed', session: { status: 'finished', steps: 1 }, report: { python_path: '/opt/venv/bin/python', notes: 'shell agent' } });
  expect(r.stages.c1).toMatchObject({ status: 'success' });
  expect(r.stages.c5).toMatchObject({ status: 'success', path: 0, version: 0, capability: 0 });
  // The token was given to the agent in its container, and stored nowhere: not in the history, not in any blob.
  const history = JSON.stringify(await h.server.client.workflow.getHandle('readiness-cli/shell-agent/numpy-stats/1').fetchHistory());
  expect(history).not.toContain('tok-0123456789abcdefSECRETvalue');
  const blobs = await h.database.db.selectFrom('blobs').select(['hash']).execute();
  const store = new BlobStore(h.database.db);
  const texts = await Promise.all(blobs.map((b) => store.getText(b.hash).catch(() => '')));
  expect(texts.some((t) => t.includes('agent started with token [redacted:ENVGAP_TEST_AGENT_TOKEN]'))).toBe(true);
  expect(texts.some((t) => t.includes('tok-0123456789abcdefSECRETvalue'))).toBe(false);
}, 900000);

test('an openai agent works through the tool loop envgap drives: each model turn and tool call its own activity, outputs capped and saying so, the report from finish', async () => {
  process.env.ENVGAP_TEST_OPENAI_KEY = 'sk-test-0123456789abcdefKEY';
  const honest = { python_path: '/opt/venv/bin/python', python_version: null, torch_version: null, cuda_available: null, gpu_count: null, ddp_expected_ok: null, env_tool: 'venv', env_name: '/opt/venv', notes: 'tool loop' };
  const script = [
    [
      ['bash', { command: 'python3 -m venv /opt/venv && /opt/venv/bin/pip install -q -r requirements.txt' }],
      ['read_file', { path: 'requirements.txt' }],
    ],
    [['bash', { command: "python3 -c \"print('x' * 40000)\"" }]],
    [['finish', { report: honest }]],
  ] as const;
  const bodies: { messages: { role: string; content: string | null }[]; tools: unknown[] }[] = [];
  const auth: (string | undefined)[] = [];
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      bodies.push(JSON.parse(data));
      auth.push(req.headers.authorization);
      const turn = script[bodies.length - 1] ?? [];
      const tool_calls = turn.map(([name, args], i) => ({ id: `call_${bodies.length}_${i}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }));
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: null, tool_calls }, finish_reason: 'tool_calls' }], usage: { prompt_tokens: 100, completion_tokens: 20 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  try {
    const study = `name: readiness-openai
protocol: readiness
agents:
  - { kind: openai, name: scripted, base_url: "http://127.0.0.1:${port}/v1", model: m, api_key_env: ENVGAP_TEST_OPENAI_KEY }
${NUMPY_STATS_REPO}budget: { wall_s: 900, steps: 20 }
`;
    const r = (await runStudy(study)).get('numpy-stats')!;
    expect(r).toMatchObject({ status: 'completed', session: { status: 'finished', steps: 4, tokens_in: 300, tokens_out: 60 }, report: { notes: 'tool loop' } });
    expect(r.stages.c1).toMatchObject({ status: 'success' });
    expect(r.stages.c5).toMatchObject({ status: 'success' });
    expect(auth.every((a) => a === 'Bearer sk-test-0123456789abcdefKEY')).toBe(true);
    expect(bodies[0]!.tools.map((t) => (t as { function: { name: string } }).function.name)).toEqual(['bash', 'read_file', 'write_file', 'finish']);
    const toolMessages = bodies[2]!.messages.filter((m) => m.role === 'tool').map((m) => m.content ?? '');
    expect(toolMessages[1]).toBe('numpy==1.26.4\n');
    expect(toolMessages[2]).toContain('[envgap: output cut to its last 16384 of 40001 bytes]');
    const history = await h.server.client.workflow.getHandle('readiness-openai/scripted/numpy-stats/1').fetchHistory();
    const types = (history.events ?? []).map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);
    expect(types.filter((t) => t === 'modelTurn')).toHaveLength(3);
    expect(types.filter((t) => t === 'toolCall')).toHaveLength(4);
    expect(JSON.stringify(history)).not.toContain('sk-test-0123456789abcdefKEY');
  } finally {
    server.close();
  }
}, 900000);
