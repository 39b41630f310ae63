import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { importHarborCommand, recordingsDir } from '../../../src/cli/harborImportCommand';
import { parseReadinessStudyFile } from '../../../src/cli/readinessStudyFile';
import { REPO_SCRIPTS_DIR } from '../../../src/domain/readinessStudy';
import { HARBOR_SHELL_FILE } from '../../../src/importers/harborShell';
import { parseSession } from '../../../src/readiness/session';

// The Harbor-layout fixture (test/fixtures/harbor, written from Harbor's public format and checked
// against harbor 0.26.0's own models: docs/harbor.md): two tasks and a job of three trials.
const FIXTURE = path.resolve(__dirname, '../../fixtures/harbor');
const TASKS = path.join(FIXTURE, 'tasks');
const JOB = path.join(FIXTURE, 'jobs', '2026-11-30__12-00-00');
const TEXTSTATS = 'envgap-fixtures@textstats';
// The command's progress lines (stderr) are not this test's.
jest.spyOn(process.stderr, 'write').mockImplementation(() => true);

function tmpStudy(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-import-')), 'study.yaml');
}

function session(out: string, agent: string, repo: string, trial = 1) {
  const file = path.join(recordingsDir(out), 'sessions', agent, repo, String(trial), 'session.jsonl');
  return parseSession(fs.readFileSync(file, 'utf8'), file);
}

const commands = (steps: ReturnType<typeof session>) => steps.flatMap((s) => (s.kind === 'command' ? [s.command.replace(`. ${HARBOR_SHELL_FILE}\n`, '')] : [`write ${s.path}`]));

describe('envgap import harbor: a job with its tasks', () => {
  const out = tmpStudy();
  const imported = importHarborCommand([JOB], { out, tasks: [TASKS] });
  const study = parseReadinessStudyFile(fs.readFileSync(out, 'utf8'), out);

  it('writes a readiness study the study-file parser takes: each task a repository, each Harbor agent a replay agent', () => {
    expect(study).toMatchObject({ name: '2026-11-30__12-00-00', protocol: 'readiness', trials: 1, gpu: { mode: 'auto' }, budget: { wallS: 7200, steps: 500, tokens: null } });
    expect(study.agents.map((a) => [a.name, a.kind, (a as { path: string }).path])).toEqual([
      ['claude-code', 'replay', path.join(recordingsDir(out), 'sessions', 'claude-code')],
      ['terminus-2', 'replay', path.join(recordingsDir(out), 'sessions', 'terminus-2')],
    ]);
    // The Dockerfile's COPY repo/ /app/ with WORKDIR /app: that folder is the repository.
    const textstats = study.repos.find((r) => r.id === TEXTSTATS)!;
    expect(textstats).toMatchObject({ source: { kind: 'folder', path: path.join(TASKS, 'textstats', 'environment', 'repo') }, supports: ['cpu'], stageTimeoutS: 300, scripts: path.join(recordingsDir(out), 'scripts', TEXTSTATS) });
    expect(textstats.entry.cpu).toBe(`if [ ! -e /app ]; then ln -s /repo /app; fi && mkdir -p /logs/agent /logs/verifier /logs/artifacts && bash ${REPO_SCRIPTS_DIR}/verify.sh /app`);
    // A git clone at a pinned commit; one GPU, so the verifier is C3's entry; its plain variable kept, its secret-looking one not.
    const tiny = study.repos.find((r) => r.id === 'tiny-train')!;
    expect(tiny).toMatchObject({ source: { kind: 'git', url: 'https://github.com/envgap-fixtures/tiny-train.git', commit: '3f2a9c1d7e5b4a6c8d0e1f2a3b4c5d6e7f8a9b0c' }, supports: ['single_gpu'], stageTimeoutS: 1200 });
    expect(tiny.entry.single_gpu).toMatch(/&& TRAIN_STEPS=20 bash \/opt\/envgap\/scripts\/verify\.sh \/workspace$/);
    expect(tiny.entry.single_gpu).not.toContain('HF_TOKEN');
    // The most any task asks (Harbor's memory = "16G", storage = "40G").
    expect(study.limits).toMatchObject({ memory_mb: 16384, cpus: 4, disk_mb: 40960 });
  });

  it("puts the task's tests beside verify.sh in the repository's scripts folder", () => {
    const scripts = path.join(recordingsDir(out), 'scripts', TEXTSTATS);
    expect(fs.readdirSync(scripts).sort()).toEqual(['tests', 'verify.sh']);
    expect(fs.readdirSync(path.join(scripts, 'tests')).sort()).toEqual(['test.sh', 'test_outputs.py']);
    expect(fs.readFileSync(path.join(scripts, 'verify.sh'), 'utf8')).toContain('(cd "$workdir" && /tests/test.sh > /logs/verifier/test-stdout.txt 2>&1)');
  });

  it("replays Terminus's keystrokes in one shell, leaves out key presses, writes what the final workspace adds, and infers the report", () => {
    const steps = session(out, 'terminus-2', TEXTSTATS);
    expect(commands(steps)).toEqual([
      'if [ ! -e /app ]; then ln -s /repo /app; fi && mkdir -p /logs/agent /logs/verifier /logs/artifacts',
      `write ${HARBOR_SHELL_FILE}`,
      'ls -la',
      'cat requirements.txt',
      'python3 -m venv .venv',
      'source .venv/bin/activate',
      'pip install -r requirements.txt',
      'python -m textstats sample.txt',
      "printf 'python3 -m venv .venv; pip install -r requirements.txt\\n' > SETUP_NOTES.md",
      // The workspace's one file the repository lacks (its .venv is left out; the rest are the repository's own).
      'write /repo/SETUP_NOTES.md',
      expect.stringContaining('if [ ! -e /opt/scimlopsbench/report.json ]; then py="$(command -v python || command -v python3)"'),
    ]);
    const harbor = JSON.parse(fs.readFileSync(path.join(recordingsDir(out), 'sessions', 'terminus-2', TEXTSTATS, '1', 'harbor-trial.json'), 'utf8'));
    expect(harbor).toMatchObject({ trial_name: 'textstats__Hb3xY9k', agent: 'terminus-2', model: 'gpt-5-mini', rewards: { reward: 1 }, passed: true, agent_seconds: 156.4, tokens: { input: 18234, output: 1207, cost_usd: 0.0071 } });
    expect(harbor.replay).toEqual({ commands: 7, writes: 0, edits: 0, subagents: 0, skipped: { 'bash_command: a key press, not a command': 2, 'mark_task_complete: changes nothing a replay redoes, or is not a shell command or a file write': 1 } });
  });

  it("replays Claude Code's edit, commands and write; reads and plans are not replayed", () => {
    const steps = session(out, 'claude-code', TEXTSTATS);
    expect(commands(steps).slice(2, -1)).toEqual([
      expect.stringMatching(/^\/usr\/bin\/python3 -c '.*' [A-Za-z0-9+/=]+$/s),
      'cd /app && python3 -m venv venv',
      'venv/bin/pip install -r requirements.txt',
      'write /repo/run.sh',
    ]);
    const harbor = JSON.parse(fs.readFileSync(path.join(recordingsDir(out), 'sessions', 'claude-code', TEXTSTATS, '1', 'harbor-trial.json'), 'utf8'));
    expect(harbor).toMatchObject({ rewards: { reward: 0 }, passed: false, workspace: { written: 0, left_out: [] } });
    expect(Object.keys(harbor.replay.skipped).sort()).toEqual(['Read: changes nothing a replay redoes, or is not a shell command or a file write', 'TodoWrite: changes nothing a replay redoes, or is not a shell command or a file write']);
  });

  it('keeps the exception of a trial that timed out, and its recorded commands up to there, through the file its trajectory continues in', () => {
    const harbor = JSON.parse(fs.readFileSync(path.join(recordingsDir(out), 'sessions', 'terminus-2', 'tiny-train', '1', 'harbor-trial.json'), 'utf8'));
    expect(harbor).toMatchObject({ rewards: null, passed: null, exception: { type: 'AgentTimeoutError' } });
    // trajectory.cont-1.json repeats a step as copied context (not replayed twice), then goes on.
    expect(commands(session(out, 'terminus-2', 'tiny-train')).slice(2, -1)).toEqual(['cd /workspace && cat requirements.txt', 'pip install -r requirements.txt', 'pip install torch==2.5.1 --index-url https://download.pytorch.org/whl/cpu']);
    expect(harbor.replay.skipped).toEqual({ 'bash_command: no keys': 1 });
  });

  it('says what was not converted and why, in the file and in what the command returns', () => {
    const text = fs.readFileSync(out, 'utf8');
    for (const line of imported.unconverted) expect(text).toContain(`#   - ${line}`);
    expect(imported.unconverted).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^task envgap-fixtures\/textstats: Dockerfile line 4: RUN apt-get update .*: a RUN step the readiness image does not run$/),
        'task tiny-train: Dockerfile line 3: ENV DEBIAN_FRONTEND=noninteractive PYTHONUNBUFFERED=1: sets variables of the image',
        'task tiny-train: Dockerfile line 10: COPY train_config.yaml /etc/tiny-train/config.yaml beside a git repository',
        'task tiny-train: [verifier].env HF_TOKEN: looks like a secret, which a study file never holds; the verifier runs without it',
        'task tiny-train: tests/test.sh fetches from astral.sh, not a package index: its stage needs that host reachable from the probe containers (a machine that reaches only the package indexes fails it)',
        'no recorded session (these instances end as errors: "replay: no recorded session"): claude-code × tiny-train trial 1',
      ]),
    );
  });
});

describe('envgap import harbor: other inputs', () => {
  it('imports tasks alone with their solutions as an oracle agent', () => {
    const out = tmpStudy();
    const imported = importHarborCommand([TASKS], { out, name: 'harbor-tasks' });
    const study = parseReadinessStudyFile(fs.readFileSync(out, 'utf8'), out);
    expect(study.agents.map((a) => a.name)).toEqual(['oracle']);
    expect(study.repos.map((r) => r.id).sort()).toEqual([TEXTSTATS, 'tiny-train']);
    expect(commands(session(out, 'oracle', TEXTSTATS)).slice(2)).toEqual(['write /solution/solve.sh', 'bash /solution/solve.sh', expect.stringContaining('report.json')]);
    expect(imported.unconverted).not.toContain(expect.stringContaining('no recorded session'));
  });

  it("adds the solutions to a job's trials with --oracle", () => {
    const out = tmpStudy();
    const imported = importHarborCommand([JOB], { out, tasks: [TASKS], oracle: true });
    expect([...new Set(imported.sessions.map((s) => s.agent))].sort()).toEqual(['claude-code', 'oracle', 'terminus-2']);
    expect(imported.notes[1]).toMatch(/^of the 3 trials, 3 replayed; /);
  });

  it('finds a task by the folder its trial recorded when the job is given beside its tasks', () => {
    const out = tmpStudy();
    const imported = importHarborCommand([FIXTURE], { out });
    // projects/ holds a second job with its task (a final workspace that is a project, for --protocol gap).
    expect(imported.sessions.map((s) => `${s.agent}/${s.repo}`).sort()).toEqual([`claude-code/${TEXTSTATS}`, 'codex/envgap-fixtures@csvtable', `terminus-2/${TEXTSTATS}`, 'terminus-2/tiny-train']);
  });

  it("lists a trial whose task is not among the inputs, and refuses when no task is", () => {
    const out = tmpStudy();
    expect(() => importHarborCommand([JOB], { out })).toThrow('import harbor: no Harbor task (a folder holding task.toml) under');
    const imported = importHarborCommand([JOB, path.join(TASKS, 'textstats')], { out });
    expect(imported.unconverted).toContain('trial 2026-11-30__12-00-00/tiny-train__Zx7Cv5b: its task tiny-train (/home/lab/harbor-runs/tasks/tiny-train) is not among the inputs: give its folder with --tasks');
  });

  it("replaces its own recordings on a second import, and refuses a folder that is not its own", () => {
    const out = tmpStudy();
    importHarborCommand([JOB], { out, tasks: [TASKS] });
    const stale = path.join(recordingsDir(out), 'sessions', 'stale-agent');
    fs.mkdirSync(stale, { recursive: true });
    importHarborCommand([JOB], { out, tasks: [TASKS] });
    expect(fs.existsSync(stale)).toBe(false);
    const other = tmpStudy();
    fs.mkdirSync(recordingsDir(other));
    expect(() => importHarborCommand([JOB], { out: other, tasks: [TASKS] })).toThrow('exists and was not written by envgap import harbor');
  });
});
