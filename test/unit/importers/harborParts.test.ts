import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseDockerfile } from '../../../src/importers/harborDockerfile';
import { HARBOR_SHELL_DIR, harborShellScript, inHarborShell } from '../../../src/importers/harborShell';
import { parseHarborTaskConfig } from '../../../src/importers/harborTaskConfig';
import { harborTaskRepo, type HarborTaskFolder } from '../../../src/importers/harborTaskRepo';
import { parseTrialResult, readRewardFiles, rewardPassed } from '../../../src/importers/harborTrial';
import { editCommand, trajectoryReplay } from '../../../src/importers/harborTrajectory';

const tmp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));
const bash = (script: string, cwd: string) => spawnSync('bash', ['-c', script], { cwd, encoding: 'utf8' });

describe('a Harbor Dockerfile', () => {
  it('gives the final stage: its base, WORKDIR, what it copies from the context, and the rest as not converted', () => {
    const plan = parseDockerfile(
      [
        'FROM node:20 AS build',
        'RUN npm ci',
        '# the final stage',
        'FROM python:3.11-slim',
        'ENV A=1',
        'WORKDIR /app',
        'COPY requirements.txt .',
        'COPY --chown=1000 src/ ./src/',
        'COPY a.txt b.txt conf/',
        'COPY --from=build /out /app/static',
        'ADD https://example.org/x.tar.gz /tmp/',
        'RUN pip install -r requirements.txt \\',
        '    && echo done',
        'USER nobody',
        'CMD ["python", "main.py"]',
      ].join('\n'),
    );
    expect(plan.base).toBe('python:3.11-slim');
    expect(plan.workdir).toBe('/app');
    expect(plan.copies).toEqual([
      { from: 'requirements.txt', to: '/app', toFolder: true, line: 7 },
      { from: 'src', to: '/app/src', toFolder: true, line: 8 },
      { from: 'a.txt', to: '/app/conf', toFolder: true, line: 9 },
      { from: 'b.txt', to: '/app/conf', toFolder: true, line: 9 },
    ]);
    expect(plan.unconverted.map((u) => [u.line, u.why])).toEqual([
      [5, 'sets variables of the image'],
      [10, 'copies from another stage or image'],
      [11, 'fetches from the network at build time'],
      [12, 'a RUN step the readiness image does not run'],
      [14, 'envgap runs the session and the probes as root'],
    ]);
    expect(plan.unconverted[3]!.text).toBe('RUN pip install -r requirements.txt && echo done');
  });

  it('takes a git clone with its checked-out commit, in any of the usual spellings, and keeps what else the RUN does', () => {
    const sha = '0123456789abcdef0123456789abcdef01234567';
    const cases = [
      `RUN git clone --depth 1 -b main https://github.com/o/r.git /repo && cd /repo && git checkout ${sha}`,
      `RUN git clone https://github.com/o/r /repo; git -C /repo reset --hard ${sha}`,
      `WORKDIR /srv\nRUN git clone https://github.com/o/repo.git && cd repo && git checkout ${sha.slice(0, 12)}`,
    ];
    expect(parseDockerfile(`FROM x\n${cases[0]}`).clones).toEqual([{ url: 'https://github.com/o/r.git', dir: '/repo', commit: sha, line: 2 }]);
    expect(parseDockerfile(`FROM x\n${cases[1]}`).clones).toEqual([{ url: 'https://github.com/o/r', dir: '/repo', commit: sha, line: 2 }]);
    expect(parseDockerfile(`FROM x\n${cases[2]}`).clones).toEqual([{ url: 'https://github.com/o/repo.git', dir: '/srv/repo', commit: sha.slice(0, 12), line: 3 }]);
    const mixed = parseDockerfile(`FROM x\nRUN git clone https://h/o/r /repo && pip install -e /repo`);
    expect(mixed.clones).toEqual([{ url: 'https://h/o/r', dir: '/repo', commit: null, line: 2 }]);
    expect(mixed.unconverted.map((u) => u.text)).toEqual(['RUN pip install -e /repo']);
  });
});

describe('a Harbor task as a repository', () => {
  const folder = (over: Partial<HarborTaskFolder>): HarborTaskFolder => ({
    dir: '/t/task',
    configText: '[task]\nname = "org/my task"\n',
    dockerfile: 'FROM python:3.11\nWORKDIR /app\nCOPY . .\n',
    compose: false,
    kind: (p) => (p === '.' || p === 'src' ? 'dir' : p.endsWith('.txt') ? 'file' : null),
    testScript: true,
    testScriptText: 'pytest /tests\necho 1 > /logs/verifier/reward.txt\n',
    ...over,
  });
  const rel = (abs: string) => `rel:${abs}`;

  it('takes the whole build context as the repository where the Dockerfile copies it, and says the Dockerfile is among its files', () => {
    const t = harborTaskRepo(folder({}), rel);
    expect(t).toMatchObject({ id: 'org@my-task', name: 'org/my task', workdir: '/app', source: { kind: 'folder', path: '/t/task/environment' }, verifierTests: '/t/task/tests' });
    expect(t.repo).toMatchObject({ supports: ['cpu'], stage_timeout_s: 600 });
    expect(t.unconverted).toContain('the whole build context is the repository: environment/Dockerfile is one of its files');
  });

  it('assembles the pieces a Dockerfile copies into the working directory, and lists those it copies elsewhere', () => {
    const t = harborTaskRepo(folder({ dockerfile: 'FROM x\nWORKDIR /app\nCOPY req.txt /app/\nCOPY src /app/src\nCOPY other.txt /etc/other.txt\nCOPY missing /app/m\n' }), rel);
    expect(t.source).toEqual({
      kind: 'pieces',
      pieces: [
        { from: '/t/task/environment/req.txt', to: 'req.txt', kind: 'file' },
        { from: '/t/task/environment/src', to: 'src', kind: 'dir' },
      ],
    });
    expect(t.unconverted).toEqual(expect.arrayContaining(['Dockerfile line 5: COPY other.txt /etc/other.txt: outside the working directory /app', 'Dockerfile line 6: COPY missing: no such file in environment/']));
  });

  it('refuses what envgap cannot run, saying why', () => {
    expect(harborTaskRepo(folder({ configText: '[[steps]]\nname = "a"\n[[steps]]\nname = "b"\n' }), rel).unconverted.at(-1)).toBe('a multi-step task (2 [[steps]]): envgap has no protocol for steps');
    expect(harborTaskRepo(folder({ compose: true }), rel).repo).toBeNull();
    expect(harborTaskRepo(folder({ configText: '[environment]\nos = "windows"\n' }), rel).unconverted.at(-1)).toBe("an environment for windows: envgap's readiness image is Linux");
    expect(harborTaskRepo(folder({ dockerfile: 'FROM x\nWORKDIR /r\nRUN git clone https://h/o/r /r\n' }), rel).unconverted.at(-1)).toMatch(/git clone https:\/\/h\/o\/r at no pinned commit/);
  });

  it('has no stage of its own without tests/test.sh; with two GPUs its verifier is C4', () => {
    expect(harborTaskRepo(folder({ testScript: false }), rel).repo).toMatchObject({ supports: [], entry: {} });
    const gpu = harborTaskRepo(folder({ configText: '[environment]\ngpus = 2\n' }), rel);
    expect(gpu.repo).toMatchObject({ supports: ['multi_gpu'], entry: { multi_gpu: expect.stringContaining('verify.sh /app') } });
  });

  it('reads the task.toml fields envgap uses, the legacy ones as Harbor reads them', () => {
    expect(parseHarborTaskConfig('version = "1.0"\n[environment]\nmemory = "4G"\nstorage = "512M"\n', 'task.toml')).toMatchObject({ schemaVersion: '1.0', memoryMb: 4096, storageMb: 512, verifierTimeoutS: 600, gpus: 0, os: 'linux' });
    expect(() => parseHarborTaskConfig('[verifier]\ntimeout_sec = "soon"\n', 'x/task.toml')).toThrow('x/task.toml: not a Harbor task.toml: field verifier.timeout_sec:');
  });
});

describe("a trial's result and rewards", () => {
  it('reads reward.json before reward.txt, as Harbor does, and refuses what is not a reward', () => {
    expect(readRewardFiles('{"reward": 0.5, "tests": 3}', '1', 'v')).toEqual({ reward: 0.5, tests: 3 });
    expect(readRewardFiles(null, ' 1\n', 'v')).toEqual({ reward: 1 });
    expect(readRewardFiles(null, null, 'v')).toBeNull();
    expect(() => readRewardFiles('{"reward": "high"}', null, 'v')).toThrow('v/reward.json: not a flat object of numbers');
    expect(() => readRewardFiles(null, 'pass', 'v')).toThrow('v/reward.txt: not a number: "pass"');
  });

  it('passes where every reward is at least 1', () => {
    expect([rewardPassed({ reward: 1 }), rewardPassed({ reward: 1, partial: 0.5 }), rewardPassed({}), rewardPassed(null)]).toEqual([true, false, false, null]);
  });

  it('names the file and the field of a result that is not a trial result', () => {
    expect(() => parseTrialResult('{"task_name": "t", "trial_name": "t__1"}', 'r.json', null)).toThrow('r.json: not a Harbor trial result: field agent_info:');
    expect(() => parseTrialResult('{', 'r.json', null)).toThrow('r.json: not JSON');
  });
});

describe('a trajectory replayed', () => {
  const atif = (calls: { function_name: string; arguments: unknown }[]) => ({ schema_version: 'ATIF-v1.6', steps: [{ source: 'user', message: 'x' }, { source: 'agent', tool_calls: calls.map((c, i) => ({ tool_call_id: `c${i}`, ...c })) }] });

  it("takes other agents' shell and editor tools: Codex's argv and workdir, Gemini CLI's, OpenHands' editor", () => {
    const r = trajectoryReplay(
      atif([
        { function_name: 'shell', arguments: { command: ['bash', '-lc', 'pip install -e .'], workdir: '/app/pkg' } },
        { function_name: 'exec_command', arguments: { cmd: 'python -V' } },
        { function_name: 'shell', arguments: { command: ['ls', '-la', 'a b'] } },
        { function_name: 'run_shell_command', arguments: { command: 'make', directory: 'sub' } },
        { function_name: 'str_replace_editor', arguments: { command: 'create', path: '/app/new.py', file_text: 'print(1)\n' } },
        { function_name: 'str_replace_editor', arguments: { command: 'view', path: '/app/new.py' } },
        { function_name: 'write_file', arguments: { file_path: 'notes/x.md', content: 'hi' } },
        { function_name: 'apply_patch', arguments: { value: '*** Begin Patch' } },
        { function_name: 'Bash', arguments: { command: 'vim setup.py' } },
      ]),
      't.json',
      '/app',
    );
    const shown = r.steps.map((s) => ('cmd' in s ? s.cmd.split('\n').pop() : `write ${s.write.path}`));
    expect(shown).toEqual(["cd /app/pkg && pip install -e .", 'python -V', "ls -la 'a b'", 'cd sub && make', 'write /repo/new.py', 'write /repo/notes/x.md']);
    expect(r.skipped).toEqual({
      'str_replace_editor: reads': 1,
      'apply_patch: a patch is not replayed (its result is in the final workspace, where the trial has one)': 1,
      'Bash: an interactive program': 1,
    });
  });

  it('refuses a file that is not an ATIF trajectory, naming it', () => {
    expect(() => trajectoryReplay({ steps: 'none' }, 'agent/trajectory.json', '/app')).toThrow('agent/trajectory.json: not an ATIF trajectory: field steps:');
  });

  const python = spawnSync('python3', ['--version']).status === 0 && fs.existsSync('/usr/bin/python3');
  (python ? it : it.skip)('edits a file as Claude Code did: once, or every occurrence with replace_all, and fails where the text is not there', () => {
    const dir = tmp('harbor-edit-');
    const file = path.join(dir, 'req.txt');
    fs.writeFileSync(file, 'a==1\nb==1\na==1\n');
    expect(bash(editCommand(file, [{ old: 'a==1', new: 'a>=1', all: false }]), dir).status).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe('a>=1\nb==1\na==1\n');
    expect(bash(editCommand(file, [{ old: '==1', new: "=='2'", all: true }]), dir).status).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe("a>=1\nb=='2'\na=='2'\n");
    const missing = bash(editCommand(file, [{ old: 'zzz', new: 'y', all: false }]), dir);
    expect([missing.status, missing.stderr]).toEqual([1, expect.stringContaining('finds no text to replace')]);
  });
});

describe("the agent's shell across recorded commands", () => {
  it('keeps the directory and exported variables from one command to the next, and each exit status', () => {
    const dir = tmp('harbor-shell-');
    const state = path.join(dir, 'state-root');
    const work = path.join(dir, 'work');
    fs.mkdirSync(path.join(work, 'sub'), { recursive: true });
    const shellFile = path.join(dir, 'shell.sh');
    fs.writeFileSync(shellFile, harborShellScript(work).replaceAll(HARBOR_SHELL_DIR, state));
    const run = (cmd: string) => bash(inHarborShell(cmd).replace(`${HARBOR_SHELL_DIR}/shell.sh`, shellFile), '/');
    expect(run('pwd').stdout.trim()).toBe(work);
    expect(run('cd sub && export VIRTUAL_ENV=/x PATH="/x/bin:$PATH"; false').status).toBe(1);
    const next = run('pwd; echo "$VIRTUAL_ENV"; echo "$PATH"; exit 3');
    expect(next.status).toBe(3);
    expect(next.stdout.split('\n').slice(0, 3)).toEqual([path.join(work, 'sub'), '/x', expect.stringMatching(/^\/x\/bin:/)]);
  });
});
