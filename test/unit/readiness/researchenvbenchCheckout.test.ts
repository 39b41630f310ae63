import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';
import { importResearchEnvBenchReposCommand } from '../../../src/cli/readinessCommands';
import { parseReadinessStudyFile } from '../../../src/cli/readinessStudyFile';
import { REPO_SCRIPTS_DIR } from '../../../src/domain/readinessStudy';
import { readResearchEnvBenchCheckout } from '../../../src/importers/researchenvbenchCheckout';
import { researchEnvBenchCheckoutStudy, researchEnvBenchStudy } from '../../../src/importers/researchenvbenchRepos';
import { repoCommands, type BenchmarkScriptsFolder } from '../../../src/importers/researchenvbenchScripts';
import { RUN_ALL_STAGE_SCRIPTS, UPSTREAM_STAGE_TIMEOUT_S, upstreamStageCommand } from '../../../src/importers/researchenvbenchStageCommand';

const CHECKOUT = path.resolve(__dirname, '../../fixtures/researchenvbench-checkout');
const DEPTH = 'DepthAnything@Depth-Anything-V2';
const MUSIC = 'FunAudioLLM@FunMusic';
const CITY = 'c2g-dev@city2graph';
const tmp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));

describe('the command of one upstream stage', () => {
  const emptied = (command: string) => command.match(/truncate -s 0 ([^)]*)\)/)![1]!.split(' ');

  it('runs run_all.sh from a copy of the mounted scripts with every other stage emptied', () => {
    const cpu = upstreamStageCommand('cpu');
    expect(cpu).toMatch(new RegExp(`^rm -rf benchmark_scripts build_output/cpu && cp -r ${REPO_SCRIPTS_DIR} benchmark_scripts && `));
    expect(cpu).toContain(' && SCIMLOPSBENCH_REPORT=/opt/scimlopsbench/report.json bash benchmark_scripts/run_all.sh;');
    expect(emptied(cpu)).toEqual(RUN_ALL_STAGE_SCRIPTS.filter((s) => s !== 'run_cpu_entrypoint.sh'));
    expect(emptied(upstreamStageCommand('prepare'))).not.toContain('prepare_assets.sh');
  });

  it('keeps the cuda stage before a GPU stage, which some scripts read', () => {
    for (const stage of ['single_gpu', 'multi_gpu'] as const) {
      const live = RUN_ALL_STAGE_SCRIPTS.filter((s) => !emptied(upstreamStageCommand(stage)).includes(s));
      expect(live).toEqual(['check_cuda_available.py', `run_${stage}_entrypoint.sh`]);
    }
  });

  it("ends with the stage's verdict as upstream's scorer reads it", () => {
    expect(upstreamStageCommand('cpu')).not.toContain('"skipped"');
    // A prepare stage with nothing to fetch says skipped, which run_all.sh does not count as a failure.
    expect(upstreamStageCommand('prepare')).toContain('sys.exit(s not in ("success","ok","passed","pass","skipped","skip"))');
    expect(upstreamStageCommand('multi_gpu')).toMatch(/; cat build_output\/multi_gpu\/log\.txt; test -f build_output\/multi_gpu\/results\.json \|\| .*; python3 -c '.*\("success","ok","passed","pass"\).*' build_output\/multi_gpu\/results\.json$/);
  });

  // The command itself, with a stand-in cpu script; the mount is a folder of this machine.
  const runnable = spawnSync('python3', ['--version']).status === 0 && spawnSync('truncate', ['--version']).status === 0;
  (runnable ? it : it.skip)('passes on a success, fails on anything else, and never runs the emptied stages', () => {
    const dir = tmp('reb-stage-');
    const scripts = path.join(dir, 'scripts');
    fs.cpSync(path.join(CHECKOUT, 'scripts', DEPTH, 'benchmark_scripts'), scripts, { recursive: true });
    fs.writeFileSync(
      path.join(scripts, 'run_cpu_entrypoint.sh'),
      'out="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build_output/cpu"; mkdir -p "$out"\necho "stand-in cpu in $PWD" > "$out/log.txt"\necho "{\\"status\\": \\"$STAND_IN\\"}" > "$out/results.json"\n',
    );
    const repo = path.join(dir, 'repo');
    fs.mkdirSync(repo);
    const run = (status: string) => spawnSync('bash', ['-c', upstreamStageCommand('cpu').replace(REPO_SCRIPTS_DIR, scripts)], { cwd: repo, encoding: 'utf8', env: { ...process.env, STAND_IN: status } });
    const ok = run('success');
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain(`stand-in cpu in ${repo}`);
    expect(ok.stdout).toMatch(/upstream verdict: build_output\/cpu\/results\.json success/);
    expect(fs.readFileSync(path.join(repo, 'benchmark_scripts', 'prepare_assets.sh'), 'utf8')).toBe('');
    expect(fs.existsSync(path.join(repo, 'build_output', 'pyright', 'log.txt'))).toBe(false);
    expect(run('skipped').status).toBe(1);
    fs.rmSync(path.join(scripts, 'run_all.sh'));
    const none = run('success');
    expect([none.status, none.stdout]).toEqual([1, expect.stringContaining("envgap: upstream's cpu stage wrote no build_output/cpu/results.json")]);
  });
});

describe('a repository\'s commands from its benchmark_scripts', () => {
  const folder = (files: string[], runAll: string | null = files.map((f) => `run_stage x bash benchmark_scripts/${f}`).join('\n')): BenchmarkScriptsFolder => ({ files, runAll });
  const all = ['prepare_assets.sh', 'run_cpu_entrypoint.sh', 'run_single_gpu_entrypoint.sh', 'run_multi_gpu_entrypoint.sh', 'run_all.sh'];

  it('gives each supported stage its command, and the prepare stage', () => {
    expect(repoCommands(folder(all), ['cpu', 'multi_gpu'], 'o@n')).toEqual({
      entry: { cpu: upstreamStageCommand('cpu'), multi_gpu: upstreamStageCommand('multi_gpu') },
      prepare: upstreamStageCommand('prepare'),
      unconverted: [],
    });
  });

  it('says why a supported stage has none', () => {
    expect(repoCommands(null, ['cpu'], 'o@n').unconverted).toEqual([{ stage: 'cpu', reason: 'no scripts/o@n/benchmark_scripts/ in the checkout' }]);
    expect(repoCommands(folder(all, null), ['cpu', 'single_gpu'], 'o@n').unconverted.map((u) => u.reason)).toEqual([
      'no run_all.sh in scripts/o@n/benchmark_scripts/ (upstream runs every stage through it)',
      'no run_all.sh in scripts/o@n/benchmark_scripts/ (upstream runs every stage through it)',
    ]);
    const commentedOut = folder(all, 'bash benchmark_scripts/run_cpu_entrypoint.sh\n  # bash benchmark_scripts/run_single_gpu_entrypoint.sh\n');
    expect(repoCommands(commentedOut, ['cpu', 'single_gpu'], 'o@n')).toEqual({
      entry: { cpu: upstreamStageCommand('cpu') },
      unconverted: [
        { stage: 'single_gpu', reason: 'run_all.sh does not run run_single_gpu_entrypoint.sh' },
        { stage: 'prepare', reason: 'run_all.sh does not run prepare_assets.sh' },
      ],
    });
    expect(repoCommands(folder(all.filter((f) => f !== 'run_cpu_entrypoint.sh')), ['cpu'], 'o@n').unconverted).toEqual([{ stage: 'cpu', reason: 'no run_cpu_entrypoint.sh' }]);
  });

  it('needs no prepare stage where no stage has a command', () => {
    expect(repoCommands(folder(all), [], 'o@n')).toEqual({ entry: {}, unconverted: [] });
  });
});

describe('envgap import researchenvbench-repos on a checkout of upstream', () => {
  const dir = tmp('reb-checkout-');
  const out = path.join(dir, 'studies', 'reb.yaml');
  fs.mkdirSync(path.dirname(out));
  const result = importResearchEnvBenchReposCommand(CHECKOUT, { out, name: 'reb' });
  const text = fs.readFileSync(out, 'utf8');
  const written = parse(text) as { repos: Record<string, unknown>[] };

  it('writes the supported stages of each repository, its scripts folder and its prepare stage', () => {
    expect(result).toEqual({ repos: 3, unconverted: 0 });
    const scripts = path.relative(path.dirname(out), path.join(CHECKOUT, 'scripts', DEPTH, 'benchmark_scripts'));
    expect(written.repos[0]).toEqual({
      id: DEPTH,
      source: { git: 'https://github.com/DepthAnything/Depth-Anything-V2', commit: 'e5a2732d3ea2cddc081d7bfd708fc0bf09f812f1' },
      supports: ['cpu', 'single_gpu'],
      scripts,
      prepare: upstreamStageCommand('prepare'),
      entry: { cpu: upstreamStageCommand('cpu'), single_gpu: upstreamStageCommand('single_gpu') },
      stage_timeout_s: UPSTREAM_STAGE_TIMEOUT_S,
    });
    expect(written.repos[1]).toMatchObject({ id: MUSIC, supports: ['single_gpu', 'multi_gpu'], entry: { single_gpu: upstreamStageCommand('single_gpu'), multi_gpu: upstreamStageCommand('multi_gpu') } });
    expect(written.repos[2]).toEqual({ id: CITY, source: expect.anything(), supports: [], entry: {} });
  });

  it('says at the top what it converted and what runs no stage', () => {
    expect(text).toContain('# Commands: C1 1, C3 2, C4 1 of 3 repositories;');
    expect(text).toContain(`# Unsupported upstream:\n#   C1: ${MUSIC}, ${CITY}\n#   C3: ${CITY}\n#   C4: ${DEPTH}, ${CITY}\n`);
    expect(text).toContain('# Not converted: none');
    expect(text).toContain(`only C0, C2 and C5 apply): ${CITY}.`);
  });

  it('reads back as a readiness study, the scripts folder resolved against the file', () => {
    const study = parseReadinessStudyFile(text, out);
    expect(study.repos[0]).toMatchObject({ scripts: path.join(CHECKOUT, 'scripts', DEPTH, 'benchmark_scripts'), prepare: upstreamStageCommand('prepare'), stageTimeoutS: UPSTREAM_STAGE_TIMEOUT_S });
    expect(study.repos[2]).not.toHaveProperty('scripts');
    expect(study.repos[2]).not.toHaveProperty('prepare');
  });

  it('lists the repositories it could not convert, and why', () => {
    const broken = tmp('reb-broken-');
    fs.cpSync(CHECKOUT, broken, { recursive: true });
    fs.rmSync(path.join(broken, 'scripts', MUSIC, 'benchmark_scripts', 'run_all.sh'));
    fs.rmSync(path.join(broken, 'scripts', DEPTH), { recursive: true });
    const { study, unconverted } = researchEnvBenchCheckoutStudy(readResearchEnvBenchCheckout(broken, broken));
    expect(unconverted).toEqual([
      { id: DEPTH, stages: [{ stage: 'cpu', reason: `no scripts/${DEPTH}/benchmark_scripts/ in the checkout` }, { stage: 'single_gpu', reason: `no scripts/${DEPTH}/benchmark_scripts/ in the checkout` }] },
      { id: MUSIC, stages: ['single_gpu', 'multi_gpu'].map((stage) => ({ stage, reason: `no run_all.sh in scripts/${MUSIC}/benchmark_scripts/ (upstream runs every stage through it)` })) },
    ]);
    expect(study.repos.map((r) => r.entry)).toEqual([{}, {}, {}]);
    const file = path.join(broken, 'reb.yaml');
    importResearchEnvBenchReposCommand(broken, { out: file });
    expect(fs.readFileSync(file, 'utf8')).toContain(`# Not converted (a supported stage without a command):\n#   ${DEPTH}: cpu: no scripts/${DEPTH}/benchmark_scripts/ in the checkout; single_gpu: `);
  });

  it('still takes the CSV alone, with entries left to fill', () => {
    const csvOut = path.join(dir, 'csv.yaml');
    expect(importResearchEnvBenchReposCommand(path.join(CHECKOUT, 'scripts_repos_test_categories.csv'), { out: csvOut })).toEqual({ repos: 3 });
    const csvText = fs.readFileSync(csvOut, 'utf8');
    expect(parse(csvText)).toEqual(researchEnvBenchStudy(fs.readFileSync(path.join(CHECKOUT, 'scripts_repos_test_categories.csv'), 'utf8'), 'c.csv'));
    expect(csvText).toContain('# The CSV has no entry commands');
    expect(csvText).not.toContain('scripts:');
  });

  it('names a folder that is not a checkout', () => {
    expect(() => importResearchEnvBenchReposCommand(dir, { out: path.join(dir, 'x.yaml') })).toThrow(`${dir}: not a ResearchEnvBench checkout (no scripts_repos_test_categories.csv)`);
  });
});

describe('the study file fields scripts and prepare', () => {
  const study = (repo: string) => `name: r\nprotocol: readiness\nagents:\n  - { kind: replay, name: rec, path: sessions }\nrepos:\n  - id: a\n    source: { path: repos/a }\n    supports: [cpu]\n${repo}`;

  it('refuses a command that runs the mounted scripts where the repo names no folder, at the field', () => {
    expect(() => parseReadinessStudyFile(study(`    entry: { cpu: bash ${REPO_SCRIPTS_DIR}/run.sh }\n`), 'r.yaml')).toThrow(/r\.yaml:\d+:\d+: repos\[0\]\.entry\.cpu: runs the scripts at \/opt\/envgap\/scripts, but the repo names no scripts folder/);
    expect(() => parseReadinessStudyFile(study(`    prepare: bash ${REPO_SCRIPTS_DIR}/prepare.sh\n`), 'r.yaml')).toThrow(/repos\[0\]\.prepare: runs the scripts at/);
    expect(() => parseReadinessStudyFile(study('    scripts: ""\n'), 'r.yaml')).toThrow(/repos\[0\]\.scripts/);
  });

  it('keeps a prepare command that needs no scripts folder', () => {
    expect(parseReadinessStudyFile(study('    prepare: python fetch.py\n'), '/s/r.yaml').repos[0]).toEqual({ id: 'a', source: { kind: 'folder', path: '/s/repos/a' }, supports: ['cpu'], entry: {}, stageTimeoutS: 600, prepare: 'python fetch.py' });
  });
});
