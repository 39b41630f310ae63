import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseReadmeStudyFile } from '../../src/cli/readmeStudyFile';
import { BlobStore } from '../../src/db/blobs';
import { readmeRecords } from '../../src/db/readme';
import type { ReadmeRecord } from '../../src/domain/readme';
import { readmeStudyMetrics } from '../../src/metrics/readmeStudy';
import { listReadmeInstances } from '../../src/readme/dataset';
import { QUEUES } from '../../src/workers/queues';
import type { readmeStudyWorkflow } from '../../src/workflows/readme';
import { REPO_ROOT, useProtocolHarness } from '../helpers/harness';

// The README quickstart end to end on this machine: real Temporal, Postgres, Docker, pip and pyright.
// Recorded answers (EnConda's layout) and the oracle over five READMEs of three archived repositories;
// every recorded setup script runs against its repository at the pinned revision.
const h = useProtocolHarness();
const file = path.join(REPO_ROOT, 'studies/readme.yaml');
let records: ReadmeRecord[];

async function runStudy(text: string, at = file) {
  const study = parseReadmeStudyFile(text, at, listReadmeInstances);
  await h.server.client.workflow.execute<typeof readmeStudyWorkflow>('readmeStudyWorkflow', { workflowId: study.name, taskQueue: QUEUES.cpu, args: [study] });
  return readmeRecords(h.database.db, study.name);
}
const of = (agent: string, instance: string) => records.find((r) => r.agent === agent && r.instance === instance)!;

beforeAll(async () => {
  records = await runStudy(fs.readFileSync(file, 'utf8'));
}, 1200000);

test('the oracle validates the scorer: type P, R and F1 = 1, fix accuracy 1 with the deterministic judge; it writes no script', () => {
  const oracle = readmeStudyMetrics(records).groups.find((g) => g.agent === 'oracle')!;
  expect(oracle).toMatchObject({ instances: 5, judge: 'deterministic', type: { precision: 1, recall: 1, f1: 1, fp: 0, fn: 0 }, fix_accuracy: 1, description_accuracy: null });
  expect(oracle.pass_at_1).toEqual({ passed: 0, attempted: 0, rate: null, skipped: 5, infra_errors: 0, harness_errors: 0, rate_errors_as_failures: null, rate_errors_delta: null });
});

test('recorded answers: the type scores summed over files, as the corpus was written (tp 6, fp 2, fn 3)', () => {
  const recorded = readmeStudyMetrics(records).groups.find((g) => g.agent === 'recorded')!;
  expect(recorded.type).toMatchObject({ tp: 6, fp: 2, fn: 3 });
  expect(recorded.type.precision).toBeCloseTo(6 / 8, 10);
  expect(recorded.type.recall).toBeCloseTo(6 / 9, 10);
  // Per file: 1 + 1 (the backticked fix) + 0 (no answer) + 1 + 1, over the five READMEs with gold errors.
  expect(recorded.fix_accuracy).toBeCloseTo(4 / 5, 10);
  expect(recorded.per_type.E2).toMatchObject({ tp: 2, fp: 0, fn: 1 });
  expect(recorded.answers).toEqual({ answered: 4, invalid_answer: 0, failed: 1, timeout: 0 });
});

test('Pass@1 for real: correct scripts pass on three archived repositories; a broken one fails with its reason; no answer fails', () => {
  for (const name of ['jaraco_inflect_error_readme_1', 'rstcheck_rstcheck_error_readme_1', 'scott-griffiths_bitstring_error_readme_4']) {
    expect({ name, ...of('recorded', name).pass }).toMatchObject({ name, status: 'pass', exit_code: 0, missing_imports: 0 });
  }
  const broken = of('recorded', 'jaraco_inflect_error_readme_1_only_E1').pass!;
  expect(broken).toMatchObject({ status: 'fail', exit_code: 1 });
  expect(broken.reason).toContain('No matching distribution found for inflection-envgap-no-such-package');
  expect(of('recorded', 'jaraco_inflect_error_readme_2')).toMatchObject({ status: 'completed', answer: { status: 'failed' }, pass: { status: 'fail', reason: 'no usable answer (failed)' } });
  expect(readmeStudyMetrics(records).groups.find((g) => g.agent === 'recorded')!.pass_at_1).toEqual({ passed: 3, attempted: 5, rate: 3 / 5, skipped: 0, infra_errors: 0, harness_errors: 0, rate_errors_as_failures: 3 / 5, rate_errors_delta: 0 });
});

test('the record: gold summary, answer and script as blobs, the scored file naming its judge', async () => {
  const r = of('recorded', 'jaraco_inflect_error_readme_1');
  expect(r).toMatchObject({ schema: 'envgap.readme/v1', repository: 'jaraco/inflect', gold: { errors: 2, types: ['E1', 'E2'], level: 'level2' }, score: { judge: 'deterministic', answered: true } });
  const script = await new BlobStore(h.database.db).getText(r.answer!.setup_script_hash!);
  expect(script).toContain('python3 -m venv .venv');
});

test('an answer that does not parse is the agent\'s invalid_answer, not a harness error; an agent in the repository\'s container; an openai agent in one call, and in a tool loop', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-readme-agents-'));
  fs.writeFileSync(path.join(dir, 'garbage.sh'), '#!/bin/sh\ntest -s "$1" && echo "The README looks fine to me."\n', { mode: 0o755 });
  const seen: string[] = [];
  const toolResults: string[] = [];
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      const body = JSON.parse(data) as { messages: { role: string; content: string }[]; tools?: { function: { name: string } }[] };
      const content = 'Here it is.\n```json\n{"detected_errors": [{"error_type": "E1", "error_description": "wrong package", "fix_suggestion": "pip install inflect"}]}\n```\n```bash\npython3 -m venv .venv\nsource .venv/bin/activate\npip install more_itertools \'typeguard>=4.0.1\' pytest\n```';
      const reply = (message: object) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', ...message } }], usage: { prompt_tokens: 900, completion_tokens: 80 } }));
      };
      if (!body.tools) {
        seen.push(body.messages[1]!.content);
        return reply({ content });
      }
      // The tool loop: look at the repository first, then finish with the answer.
      const results = body.messages.filter((m) => m.role === 'tool');
      if (results.length === 0) return reply({ content: null, tool_calls: [{ id: 'call-1', type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command: 'test -f /repo/pyproject.toml && echo FOUND-THE-REPO' }) } }] });
      toolResults.push(...results.map((m) => m.content));
      return reply({ content: null, tool_calls: [{ id: 'call-2', type: 'function', function: { name: 'finish', arguments: JSON.stringify({ answer: content }) } }] });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const port = (server.address() as AddressInfo).port;
    const study = `name: readme-agents
protocol: readme
data: ${path.join(REPO_ROOT, '..', 'shared', 'data', 'enconda')}
instances: [jaraco_inflect_error_readme_1_only_E1]
agents:
  - kind: cli
    name: garbage
    command: test -s {prompt_file} && echo "The README looks fine to me."
  - kind: cli
    name: in-repo
    in_container: true
    install: |
      cat > /usr/local/bin/look-at-repo <<'SH'
      #!/bin/bash
      set -e
      grep -q 'README Content' "$1"
      grep -q '/repo' "$1"
      test -f /repo/pyproject.toml
      cat /opt/answer.md
      SH
      cat > /opt/answer.md <<'MD'
      \`\`\`json
      {"detected_errors": [{"error_type": "E1", "error_description": "the package is not on PyPI under that name", "fix_suggestion": "pip install inflect"}]}
      \`\`\`
      \`\`\`bash
      pip install -e .
      \`\`\`
      MD
      chmod +x /usr/local/bin/look-at-repo
    command: look-at-repo {prompt_file}
  - kind: openai
    name: local-model
    base_url: http://127.0.0.1:${port}/v1
    model: test-model
  - kind: openai
    name: local-loop
    tool_loop: true
    base_url: http://127.0.0.1:${port}/v1
    model: test-model
`;
    const rs = await runStudy(study, path.join(dir, 'readme-agents.yaml'));
    const garbage = rs.find((r) => r.agent === 'garbage')!;
    expect(garbage).toMatchObject({ status: 'completed', error: null, answer: { status: 'invalid_answer', detected_errors: [] }, pass: { status: 'fail', reason: 'no usable answer (invalid_answer)' } });
    expect(garbage.answer!.problem).toContain('no ```json block');
    expect(garbage.score).toMatchObject({ type: { tp: 0, fp: 0, fn: 1 } });
    // Agent mode: the agent read its prompt and the repository inside the container, and answered.
    expect(rs.find((r) => r.agent === 'in-repo')).toMatchObject({ status: 'completed', agent_kind: 'cli-in-container', answer: { status: 'answered', detected_errors: [{ error_type: 'E1' }] }, score: { type: { tp: 1, fp: 0, fn: 0 } } });
    const model = rs.find((r) => r.agent === 'local-model')!;
    expect(model).toMatchObject({ status: 'completed', answer: { status: 'answered', tokens_in: 900, tokens_out: 80 }, score: { type: { tp: 1, fp: 0, fn: 0 } }, pass: { status: 'pass' } });
    // The tool loop worked in the repository's container, two turns, and finish carried the answer.
    expect(rs.find((r) => r.agent === 'local-loop')).toMatchObject({ status: 'completed', answer: { status: 'answered', tokens_in: 1800, tokens_out: 160 }, score: { type: { tp: 1, fp: 0, fn: 0 } }, pass: { status: 'pass' } });
    expect(toolResults[0]).toContain('FOUND-THE-REPO');
    // Both containers were sandboxes with the study's limits (README defaults), the shared pip cache out of reach.
    expect(rs.find((r) => r.agent === 'in-repo')!.answer!.sandbox).toMatchObject({ memory_mb: 4096, cpus: 2, pids: 1024, disk_mb: 10240, shm_mb: 64, disk: 'layer-fs', caches: 'none', limits_hit: [] });
    expect(model.pass!.sandbox).toMatchObject({ memory_mb: 4096, pids: 1024, disk_mb: 10240, shm_mb: 64, network: 'envgap-sandbox', disk: 'layer-fs', caches: 'none', limits_hit: [] });
    // The prompt held the README and the repository's files at its pinned revision.
    expect(seen[0]).toContain('Repository: jaraco/inflect\nFile structure:\n  file: ');
    expect(seen[0]).toContain('## README Content:\n');
  } finally {
    server.close();
  }
}, 900000);
