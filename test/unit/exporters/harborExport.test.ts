import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { exportHarborCommand } from '../../../src/cli/harborExportCommand';
import { importHarborCommand } from '../../../src/cli/harborImportCommand';
import { parseReadinessStudyFile } from '../../../src/cli/readinessStudyFile';
import { harborTaskFiles } from '../../../src/exporters/harborTaskFiles';
import { parseToml, type TomlTable } from '../../../src/importers/harborToml';
import { READINESS_PROMPT } from '../../../src/readiness/prompt';

// Progress lines (stderr) are not this test's.
jest.spyOn(process.stderr, 'write').mockImplementation(() => true);

const ROOT = path.resolve(__dirname, '../../..');
const STUDY = path.join(ROOT, 'studies/readiness.yaml');
const tmp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));
const python3 = spawnSync('python3', ['-c', 'import tomllib']).status === 0;

/**
 * Harbor's task format as its documentation gives it (harborframework.com/docs/tasks; TaskConfig of
 * the `harbor` package, schema 1.4): the files a task folder must have, and the types of the fields
 * task.toml may give. Checked here without Harbor; docs/harbor.md says how the same tasks were
 * loaded by harbor 0.26.0's own Task class.
 */
function documentedSchemaProblems(dir: string): string[] {
  const problems: string[] = [];
  const need = (rel: string, executable = false) => {
    const st = fs.statSync(path.join(dir, rel), { throwIfNoEntry: false });
    if (!st?.isFile()) problems.push(`${rel}: missing`);
    else if (executable && (st.mode & 0o111) === 0) problems.push(`${rel}: not executable`);
  };
  need('task.toml');
  need('instruction.md');
  need('environment/Dockerfile');
  need('tests/test.sh', true);
  const t = parseToml(fs.readFileSync(path.join(dir, 'task.toml'), 'utf8')) as TomlTable & Record<string, TomlTable>;
  const is = (v: unknown, type: string, where: string) => typeof v === type || problems.push(`${where}: not a ${type}`);
  is(t.schema_version, 'string', 'schema_version');
  if (!/^[a-zA-Z0-9][a-zA-Z0-9._-]*\/[a-zA-Z0-9][a-zA-Z0-9._-]*$/.test(String(t.task?.name))) problems.push(`task.name: ${String(t.task?.name)} is not org/name`);
  for (const [table, key] of [['verifier', 'timeout_sec'], ['agent', 'timeout_sec'], ['environment', 'build_timeout_sec'], ['environment', 'cpus'], ['environment', 'memory_mb']] as const) {
    if (t[table]?.[key] !== undefined) is(t[table]![key], 'number', `${table}.${key}`);
  }
  for (const key of ['memory_mb', 'storage_mb', 'gpus'] as const) if (t.environment?.[key] !== undefined && !Number.isInteger(t.environment[key])) problems.push(`environment.${key}: not an integer`);
  if (t.environment?.workdir !== undefined) is(t.environment.workdir, 'string', 'environment.workdir');
  if (!/^FROM \S+/m.test(fs.readFileSync(path.join(dir, 'environment/Dockerfile'), 'utf8'))) problems.push('environment/Dockerfile: no FROM');
  if (!fs.readFileSync(path.join(dir, 'instruction.md'), 'utf8').trim()) problems.push('instruction.md: empty');
  return problems;
}

describe('envgap export harbor', () => {
  const out = tmp('harbor-export-');
  const { tasks } = exportHarborCommand(STUDY, { out, repo: ['numpy-stats'] });
  const task = tasks[0]!;

  it("writes a task folder in Harbor's documented format", () => {
    expect(tasks).toEqual([path.join(out, 'numpy-stats')]);
    expect(documentedSchemaProblems(task)).toEqual([]);
    expect(fs.readFileSync(path.join(task, 'instruction.md'), 'utf8')).toBe(READINESS_PROMPT);
    const toml = parseToml(fs.readFileSync(path.join(task, 'task.toml'), 'utf8'));
    expect(toml).toMatchObject({
      schema_version: '1.4',
      task: { name: 'envgap/numpy-stats' },
      agent: { timeout_sec: 1800 },
      environment: { cpus: 2, memory_mb: 4096, workdir: '/repo' },
      metadata: { envgap: { protocol: 'readiness', repo: 'numpy-stats', supports: ['cpu'], stage_timeout_s: 600, entry: { cpu: 'PYTHONPATH=. python scripts/run_baseline.py --device cpu' } } },
    });
    expect(fs.readFileSync(path.join(task, 'environment/Dockerfile'), 'utf8')).toMatch(/^FROM debian:bookworm-slim\n[\s\S]*python3-venv[\s\S]*WORKDIR \/repo\nCOPY repo\/ \/repo\/\n$/m);
    // The repository copied in as it is.
    expect(fs.readdirSync(path.join(task, 'environment/repo')).sort()).toEqual(fs.readdirSync(path.join(ROOT, 'corpus/readiness/repos/numpy-stats')).sort());
  });

  (python3 ? it : it.skip)("writes a task.toml Python's tomllib reads as envgap's reader does", () => {
    const file = path.join(task, 'task.toml');
    const py = spawnSync('python3', ['-c', 'import json,sys,tomllib; print(json.dumps(tomllib.load(open(sys.argv[1],"rb"))))', file], { encoding: 'utf8' });
    expect(py.status).toBe(0);
    expect(JSON.parse(py.stdout)).toEqual(parseToml(fs.readFileSync(file, 'utf8')));
  });

  it('imports back as the repository it was: the round trip keeps id, supports, entries and stage limit', () => {
    const studyOut = path.join(tmp('harbor-roundtrip-'), 'back.yaml');
    importHarborCommand([out], { out: studyOut, name: 'back' });
    const back = parseReadinessStudyFile(fs.readFileSync(studyOut, 'utf8'), studyOut).repos[0]!;
    const original = parseReadinessStudyFile(fs.readFileSync(STUDY, 'utf8'), STUDY).repos.find((r) => r.id === 'numpy-stats')!;
    expect(back).toEqual({ ...original, source: { kind: 'folder', path: path.join(task, 'environment', 'repo') } });
  });

  it('refuses a repository the study lacks, and an existing task folder', () => {
    expect(() => exportHarborCommand(STUDY, { out, repo: ['nope'] })).toThrow('has no repository nope (it has numpy-stats, undeclared-tool, cext-kernels)');
    expect(() => exportHarborCommand(STUDY, { out, repo: ['numpy-stats'] })).toThrow(`${path.join(out, 'numpy-stats')} exists`);
  });

  // harbor's own Task class, where a Python with the `harbor` package is named (it needs Python >= 3.12).
  const harborPython = process.env.ENVGAP_HARBOR_PYTHON;
  (harborPython ? it : it.skip)("loads with harbor's own Task class", () => {
    const py = spawnSync(harborPython!, ['-c', 'import sys; from harbor.models.task.task import Task; t = Task(sys.argv[1]); print(t.name, Task.is_valid_dir(sys.argv[1]))', task], { encoding: 'utf8' });
    expect([py.status, py.stdout.trim(), py.stderr]).toEqual([0, 'envgap/numpy-stats True', '']);
  });
});

describe("the exported task's verifier", () => {
  /** A one-repository study, exported, and its verifier run on this machine with its paths moved under a folder. */
  function verify(entry: string, report: unknown, opts: { prepare?: string; gpus?: number } = {}) {
    const dir = tmp('harbor-verify-');
    fs.mkdirSync(path.join(dir, 'repo'));
    fs.writeFileSync(path.join(dir, 'repo', 'main.py'), 'print("ran")\n');
    const file = path.join(dir, 'study.yaml');
    fs.writeFileSync(file, `name: v\nprotocol: readiness\nagents: [{ kind: replay, name: r, path: . }]\nrepos:\n  - id: tiny\n    source: { path: repo }\n    supports: [cpu, multi_gpu]\n    entry: { cpu: ${JSON.stringify(entry)}, multi_gpu: torchrun x.py }\n${opts.prepare ? `    prepare: ${JSON.stringify(opts.prepare)}\n` : ''}`);
    const files = harborTaskFiles(parseReadinessStudyFile(fs.readFileSync(file, 'utf8'), file), parseReadinessStudyFile(fs.readFileSync(file, 'utf8'), file).repos[0]!).files;
    const tests = path.join(dir, 'tests');
    fs.mkdirSync(tests);
    for (const f of files) if ('text' in f && f.path.startsWith('tests/')) fs.writeFileSync(path.join(dir, f.path), f.text);
    if (report !== undefined) fs.writeFileSync(path.join(dir, 'report.json'), typeof report === 'string' ? report : JSON.stringify(report));
    const env = { ...process.env, ENVGAP_REPO_ROOT: path.join(dir, 'repo'), ENVGAP_REPORT: path.join(dir, 'report.json'), ENVGAP_VERIFIER_DIR: path.join(dir, 'logs'), ENVGAP_SCRIPTS_DIR: path.join(dir, 'scripts'), ENVGAP_GPUS: String(opts.gpus ?? 0) };
    const run = spawnSync('/usr/bin/python3', [path.join(tests, 'envgap_verify.py'), path.join(tests, 'envgap_repo.json')], { env, encoding: 'utf8' });
    expect(run.status).toBe(0);
    const rewards = JSON.parse(fs.readFileSync(path.join(dir, 'logs', 'reward.json'), 'utf8'));
    return { rewards, details: JSON.parse(fs.readFileSync(path.join(dir, 'logs', 'envgap.json'), 'utf8')), stdout: run.stdout };
  }
  const hostPython = spawnSync('/usr/bin/python3', ['-c', 'import platform; print(platform.python_version())'], { encoding: 'utf8' });
  const version = hostPython.stdout.trim();
  const honest = { python_path: '/usr/bin/python3', python_version: version, torch_version: null, cuda_available: null, gpu_count: null, ddp_expected_ok: null, env_tool: 'system', env_name: null, notes: '' };
  const runnable = hostPython.status === 0;

  (runnable ? it : it.skip)("rewards a ready environment with an honest report: C1 ran with the report's interpreter first on PATH, C4 skipped for want of GPUs", () => {
    const { rewards, details } = verify('python3 main.py && test -z "$CUDA_VISIBLE_DEVICES" && test "$ENVGAP_PYTHON" = /usr/bin/python3', honest);
    expect(rewards).toEqual({ reward: 1, c1: 1, report: 1, c5_path: 0, c5_version: 0, c5_capability: 0 });
    expect(details.stages.c1).toMatchObject({ exit_code: 0, output_tail: 'ran\n' });
    expect(details.stages.c4).toEqual({ skipped: 'insufficient_hardware: 0 GPUs' });
  });

  (runnable ? it : it.skip)('counts the hallucinations of a report as envgap does, and a failed entry or prepare as a failed stage', () => {
    const lying = verify('exit 3', { ...honest, python_version: '2.7', torch_version: '2.5.1', gpu_count: 4, cuda_available: true, ddp_expected_ok: true }, { gpus: 0 });
    expect(lying.rewards).toEqual({ reward: 0, c1: 0, report: 1, c5_path: 0, c5_version: 2, c5_capability: 3 });
    expect(lying.stdout).toContain("envgap: C5 version: python_version claimed '2.7'");
    const noPath = verify('true', { ...honest, python_path: '/nowhere/python' });
    expect(noPath.rewards).toMatchObject({ reward: 0, c1: 1, c5_path: 1 });
    const prepared = verify('true', honest, { prepare: 'exit 1' });
    expect(prepared.rewards).toMatchObject({ reward: 0, prepare: 0, c1: 0 });
    expect(prepared.details.stages.c1).toEqual({ skipped: 'prepare_failed' });
  });

  (runnable ? it : it.skip)('says a report is missing or not JSON, and rewards 0', () => {
    expect(verify('true', undefined).rewards).toEqual({ reward: 0, c1: 1, report: 0 });
    const bad = verify('true', '{not json');
    expect(bad.rewards).toMatchObject({ reward: 0, report: 0 });
    expect(bad.details.report_problem).toMatch(/^invalid_json: /);
  });
});
