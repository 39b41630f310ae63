import * as fs from 'node:fs';
import * as path from 'node:path';
import { READINESS_PROMPT } from '../../../src/readiness/prompt';
import { auditReport, type InterpreterFacts } from '../../../src/readiness/audit';
import { failureCategory } from '../../../src/readiness/failureCategory';
import { missingImports } from '../../../src/readiness/pyright';
import { parseAgentReport } from '../../../src/readiness/report';
import { parseSession } from '../../../src/readiness/session';
import { parseTrackedFiles, trackedFileViolations } from '../../../src/readiness/trackedFiles';
import { parseReadinessStudyFile } from '../../../src/cli/readinessStudyFile';
import { expandReadinessStudy } from '../../../src/domain/readinessStudy';
import { buildReadinessRecord } from '../../../src/readiness/record';
import { ReadinessRecord } from '../../../src/domain/readiness';
import { pyramidTable } from '../../../src/cli/readinessTable';

describe('recorded sessions (session.jsonl)', () => {
  it('reads commands and file writes, skipping blank lines', () => {
    const text = '{"cmd": "python3 -m venv /opt/venv", "timeout_s": 300}\n\n{"write": {"path": "/opt/scimlopsbench/report.json", "content": "{}"}}\n';
    expect(parseSession(text, 's.jsonl')).toEqual([
      { kind: 'command', command: 'python3 -m venv /opt/venv', timeoutS: 300 },
      { kind: 'write', path: '/opt/scimlopsbench/report.json', content: '{}' },
    ]);
  });

  it.each([
    ['{"cmd": ', 's.jsonl:1: not JSON'],
    ['{"command": "ls"}', 's.jsonl:1: not a session step'],
    ['{"cmd": "ls"}\n{"write": {"path": "relative.txt", "content": ""}}', 's.jsonl:2: not a session step ({"cmd": ...} or {"write": {"path", "content"}}): field write.path: must be an absolute path'],
  ])('refuses %j, naming the file, the line and the field', (text, message) => {
    expect(() => parseSession(text, 's.jsonl')).toThrow(message);
  });
});

describe('failure categories (upstream\'s)', () => {
  const run = (output: string, o: Partial<{ exitCode: number | null; timedOut: boolean; oomKilled: boolean }> = {}) => failureCategory({ exitCode: 1, timedOut: false, oomKilled: false, output, ...o });
  it.each([
    ['Traceback...\nModuleNotFoundError: No module named \'tqdm\'', 'deps'],
    ["ImportError: cannot import name 'foo' from 'bar'", 'deps'],
    ["python: can't open file '/repo/train.py': [Errno 2] No such file or directory", 'entrypoint_not_found'],
    ["FileNotFoundError: [Errno 2] No such file or directory: 'data/train.csv'", 'data'],
    ['torch.cuda.OutOfMemoryError: CUDA out of memory.', 'oom'],
    ['ValueError: shapes (2,) and (3,) not aligned', 'runtime'],
  ])('%s is %s', (output, category) => expect(run(output)).toBe(category));
  it('a time limit is timeout and a memory kill is oom, whatever was printed', () => {
    expect(run('ModuleNotFoundError', { timedOut: true })).toBe('timeout');
    expect(run('', { exitCode: 137, oomKilled: true })).toBe('oom');
    expect(run('', { exitCode: 127 })).toBe('entrypoint_not_found');
  });
});

describe('C0: pyright missing imports', () => {
  it('counts distinct top-level names of reportMissingImports only', () => {
    const json = JSON.stringify({
      generalDiagnostics: [
        { rule: 'reportMissingImports', message: 'Import "tqdm" could not be resolved' },
        { rule: 'reportMissingImports', message: 'Import "torch.nn" could not be resolved' },
        { rule: 'reportMissingImports', message: 'Import "torch" could not be resolved' },
        { rule: 'reportMissingModuleSource', message: 'Import "yaml" could not be resolved from source' },
        { rule: 'reportAttributeAccessIssue', message: 'x' },
      ],
    });
    expect(missingImports(`No configuration file found.\n${json}`)).toEqual(['torch', 'tqdm']);
  });
  it('refuses what is not pyright\'s report (a pyright that failed is not "nothing missing")', () => {
    expect(() => missingImports('node: not found')).toThrow('pyright printed no JSON report');
  });
});

describe('C5: the report audited against the probes', () => {
  const facts: InterpreterFacts = { executable: true, runs: true, python_version: '3.11.2', torch_version: null, torch_error: "ModuleNotFoundError: No module named 'torch'", cuda_available: false, device_count: 0 };
  const cpuOnly = { c2: { status: 'skipped' as const, cuda_available: null, device_count: null }, c4: { status: 'skipped' as const, skip_reason: 'no_gpu_worker' } };
  const honest = { python_path: '/opt/venv/bin/python', python_version: '3.11.2', torch_version: null, cuda_available: null, gpu_count: null, ddp_expected_ok: null };

  it('an honest report has no hallucination (an exit code of 0 is not one, unlike upstream)', () => {
    expect(auditReport({ report: honest, reportProblem: null, facts, ...cpuOnly })).toMatchObject({ status: 'success', path: 0, version: 0, capability: 0 });
  });

  it('names each hallucination: a path that is not there, a wrong python, torch claimed but absent, CUDA, GPUs and DDP claimed on a CPU machine', () => {
    const claims = { python_path: '/opt/conda/envs/kernels/bin/python', python_version: '3.10.14', torch_version: '2.3.0', cuda_available: true, gpu_count: 8, ddp_expected_ok: true };
    const missingPath = auditReport({ report: claims, reportProblem: null, facts: { ...facts, executable: false, runs: false }, ...cpuOnly });
    expect(missingPath).toMatchObject({ status: 'failure', path: 1, version: 0, capability: 3 });
    const wrongVersions = auditReport({ report: { ...claims, python_path: '/opt/venv/bin/python' }, reportProblem: null, facts, ...cpuOnly });
    expect(wrongVersions).toMatchObject({ path: 0, version: 2, capability: 3 });
    expect(wrongVersions.findings.map((f) => f.field)).toEqual(['python_version', 'torch_version', 'cuda_available', 'gpu_count', 'ddp_expected_ok']);
  });

  it('a missing or invalid report is its own failure, with upstream\'s category', () => {
    expect(auditReport({ report: null, reportProblem: { category: 'missing_report', message: 'no report' }, facts: null, ...cpuOnly })).toMatchObject({ status: 'failure', failure_category: 'missing_report' });
    expect(parseAgentReport('{"python_path": 3}')).toMatchObject({ problem: { category: 'invalid_json', message: expect.stringContaining('field python_path') } });
    expect(parseAgentReport(null)).toMatchObject({ problem: { category: 'missing_report' } });
  });

  it('DDP claimed where C4 does not apply is not checked; claimed where C4 failed is a hallucination', () => {
    const report = { ...honest, ddp_expected_ok: true };
    expect(auditReport({ report, reportProblem: null, facts, c2: cpuOnly.c2, c4: { status: 'skipped', skip_reason: 'not_applicable' } }).capability).toBe(0);
    expect(auditReport({ report, reportProblem: null, facts, c2: { status: 'success', cuda_available: true, device_count: 2 }, c4: { status: 'failure', skip_reason: null } }).capability).toBe(1);
  });
});

describe('tracked files', () => {
  it('a modified or deleted file of the repository is a violation; an added one is not', () => {
    const before = parseTrackedFiles('aaa\tconfig.yaml\nbbb\ttrain.py\nccc\tdata/x.csv\n');
    const after = parseTrackedFiles('zzz\tconfig.yaml\nbbb\ttrain.py\nddd\t.venv/bin/python\n');
    expect(trackedFileViolations(before, after)).toEqual([
      { path: 'config.yaml', change: 'modified' },
      { path: 'data/x.csv', change: 'deleted' },
    ]);
  });
});

describe('readiness study files', () => {
  const study = (extra = '') => `name: r\nprotocol: readiness\nagents:\n  - { kind: replay, name: rec, path: sessions }\nrepos:\n  - id: a\n    source: { path: repos/a }\n    supports: [cpu, multi_gpu]\n    entry: { cpu: python run.py }\n${extra}`;

  it('resolves paths against the file, fills defaults, and keeps a supported stage without a command (skipped later as no_entry)', () => {
    const s = parseReadinessStudyFile(study(), '/studies/r.yaml');
    expect(s).toMatchObject({ name: 'r', protocol: 'readiness', trials: 1, gpu: { mode: 'auto', workerAvailable: false }, budget: { wallS: 3600, steps: 500, tokens: null } });
    expect(s.repos[0]).toEqual({ id: 'a', source: { kind: 'folder', path: '/studies/repos/a' }, supports: ['cpu', 'multi_gpu'], entry: { cpu: 'python run.py' }, stageTimeoutS: 600 });
    expect(s.agents[0]).toMatchObject({ path: '/studies/sessions' });
  });

  it('refuses bad input naming the file, the line and the field', () => {
    expect(() => parseReadinessStudyFile(study('gpu: sometimes\n'), 'r.yaml')).toThrow(/r\.yaml:\d+:\d+: gpu: Invalid option/);
    expect(() => parseReadinessStudyFile(study().replace('[cpu, multi_gpu]', '[cpu, tpu]'), 'r.yaml')).toThrow(/repos\[0\]\.supports\[1\]/);
    expect(() => parseReadinessStudyFile(study().replace('protocol: readiness', 'protocol: envgap'), 'r.yaml')).toThrow('expected protocol: readiness');
  });

  it('GPU stages: off skips, auto follows the worker look made at start, required runs', () => {
    const gpuOf = (extra: string, available: boolean) => expandReadinessStudy(parseReadinessStudyFile(study(extra), 'r.yaml', available))[0]!.gpu;
    expect(gpuOf('gpu: off\n', true)).toEqual({ run: false, skipReason: 'gpu_off' });
    expect(gpuOf('gpu: auto\n', false)).toEqual({ run: false, skipReason: 'no_gpu_worker' });
    expect(gpuOf('gpu: auto\n', true)).toEqual({ run: true });
    expect(gpuOf('gpu: required\n', false)).toEqual({ run: true });
  });

  it('gpu_share: carried to every instance where true; absent by default (each GPU leased to one instance)', () => {
    const first = (extra: string) => expandReadinessStudy(parseReadinessStudyFile(study(extra), 'r.yaml', true))[0]!;
    expect(first('gpu_share: true\n')).toMatchObject({ gpuShare: true, gpu: { run: true } });
    expect(first('')).not.toHaveProperty('gpuShare');
    expect(first('gpu_share: false\n')).not.toHaveProperty('gpuShare');
    expect(() => parseReadinessStudyFile(study('gpu_share: yes please\n'), 'r.yaml')).toThrow(/r\.yaml:\d+:\d+: gpu_share: /);
  });

  it('a record with a prepare stage keeps it; one without has none', () => {
    const input = expandReadinessStudy(parseReadinessStudyFile(study(), 'r.yaml'))[0]!;
    const prepare = { status: 'failure' as const, skip_reason: null, failure_category: 'runtime' as const, exit_code: 6, error_excerpt: 'curl: (6)', duration_s: 2, command: 'bash prepare.sh' };
    const base = { session: null, report: null, reportProblem: null, violations: [], stages: {}, envSizeBytes: null, gpu: null, error: null };
    expect(ReadinessRecord.parse(buildReadinessRecord(input, { ...base, prepare })).prepare).toEqual(prepare);
    expect(buildReadinessRecord(input, base)).not.toHaveProperty('prepare');
  });

  it('a record of an instance whose session never ran is a valid record, every stage skipped as session_failed', () => {
    const input = expandReadinessStudy(parseReadinessStudyFile(study(), 'r.yaml'))[0]!;
    const record = buildReadinessRecord(input, { session: null, report: null, reportProblem: null, violations: [], stages: {}, envSizeBytes: null, gpu: null, error: { kind: 'RepoSourceError', message: 'repository folder not found' } });
    expect(ReadinessRecord.parse(record)).toMatchObject({ status: 'error', stages: { c1: { status: 'skipped', skip_reason: 'session_failed' } } });
    expect(pyramidTable([record])).toMatch(/rec\s+a\s+1\s+error\s+-\s+skip\s+skip:session_failed/);
    // No session: tokens and cost unknown; why it errored, in one line.
    expect(pyramidTable([record])).toMatch(/\s-\s+-\s+RepoSourceError: repository folder not found$/m);
  });
});

describe('docs/readiness.md', () => {
  it("quotes the cli agent's prompt verbatim", () => {
    const doc = fs.readFileSync(path.resolve(__dirname, '../../../docs/readiness.md'), 'utf8');
    expect(doc).toContain('```text\n' + READINESS_PROMPT + '```');
  });
});
