import { MockActivityEnvironment } from '@temporalio/testing';
import { ApplicationFailure } from '@temporalio/common';
import { createPassActivities, type RunSetupScriptInput, type RunSetupScriptResult } from '../../src/activities/readme/passAt1';
import { sandboxName } from '../../src/sandbox';
import { BlobStore } from '../../src/db/blobs';
import { connectDocker } from '../../src/infra/docker';
import { loadSettings } from '../../src/infra/settings';
import { referenceData } from '../helpers/data';
import { freshDatabase } from '../helpers/postgres';

// Pass@1 for real: three of the archived EnConda-Bench repositories (the lightest: inflect, rstcheck,
// bitstring; pyperf needs matplotlib and scipy, tablib pandas), their setup scripts run in the
// readiness image against PyPI (pip's cache the sandbox's own: the shared one is out of reach), then envgap's pyright.
const docker = connectDocker();
const settings = loadSettings();
let database: Awaited<ReturnType<typeof freshDatabase>>;
let blobs: BlobStore;

const archive = (name: string) => ({ kind: 'archive' as const, path: referenceData('data', 'enconda', 'repos', `${name}.tar.gz`) });

async function runScript(instanceId: string, repo: string | null, script: string | null): Promise<RunSetupScriptResult> {
  const activities = createPassActivities({ docker, blobs, settings, log: (l) => process.stdout.write(`${l}\n`) });
  const input: RunSetupScriptInput = { instanceId, source: repo === null ? null : archive(repo), scriptHash: script === null ? null : await blobs.put(script), timeoutS: 600, memoryMb: 4096, cpus: 2 };
  const started = Date.now();
  const r = (await new MockActivityEnvironment().run(activities.runSetupScript, input)) as RunSetupScriptResult;
  process.stdout.write(`[readme-pass] ${instanceId}: ${r.status} (${r.reason ?? 'ok'}), script+pyright ${r.duration_s?.toFixed(1) ?? '-'} s, activity ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  // The container is gone once the activity returns, whatever it returned.
  await expect(docker.getContainer(sandboxName(instanceId, 'pass', 1)).inspect()).rejects.toMatchObject({ statusCode: 404 });
  return r;
}

beforeAll(async () => {
  database = await freshDatabase();
  blobs = new BlobStore(database.db);
});

afterAll(async () => {
  await database?.drop();
});

describe('a correct setup script passes: exit 0, no reportMissingImports', () => {
  test('jaraco/inflect: a venv in the repository, activated (its python is the one pyright uses)', async () => {
    const r = await runScript('pass-test/inflect/ok', 'jaraco__inflect', `python3 -m venv .venv
source .venv/bin/activate
pip install more_itertools 'typeguard>=4.0.1' pytest
`);
    expect(r).toMatchObject({ status: 'pass', reason: null, exit_code: 0, timed_out: false, missing_imports: 0, missing: [], python: '/repo/.venv/bin/python' });
    const log = await blobs.getText(r.logHash!);
    expect(log).toMatch(/Successfully installed .*typeguard/);
    expect(log).toContain('== pyright --pythonpath /repo/.venv/bin/python');
  }, 600000);

  test('rstcheck/rstcheck: the bare python (as in EnvBench\'s image), pip into it', async () => {
    const r = await runScript('pass-test/rstcheck/ok', 'rstcheck__rstcheck', `python -m pip install 'rstcheck-core>=1.1' 'typer>=0.4.1' pytest sphinx
`);
    expect(r).toMatchObject({ status: 'pass', exit_code: 0, missing_imports: 0, missing: [], python: '/usr/local/bin/python' });
  }, 600000);

  test('scott-griffiths/bitstring: a venv outside the repository, put first on PATH', async () => {
    const r = await runScript('pass-test/bitstring/ok', 'scott-griffiths__bitstring', `python3 -m venv /opt/bitstring-env
export PATH=/opt/bitstring-env/bin:$PATH
pip install 'bitarray>=2.9.0,<3.0.0' gfloat hypothesis numpy pytest
exit 0
`);
    expect(r).toMatchObject({ status: 'pass', exit_code: 0, missing_imports: 0, missing: [], python: '/opt/bitstring-env/bin/python' });
  }, 600000);
});

describe('a broken setup script fails, with the reason', () => {
  test('a wrong package name: pip fails, set -e stops the script there', async () => {
    const r = await runScript('pass-test/inflect/typo', 'jaraco__inflect', `python3 -m venv .venv
source .venv/bin/activate
pip install more_itertools typeguard envgap-no-such-package-3f9c
echo "setup done"
`);
    expect(r).toMatchObject({ status: 'fail', exit_code: 1, timed_out: false, missing_imports: null, python: null });
    expect(r.reason).toMatch(/^script exited 1: ERROR: No matching distribution found for envgap-no-such-package-3f9c/);
    expect(r.log_excerpt).toContain('No matching distribution found');
    expect(await blobs.getText(r.logHash!)).not.toContain('setup done');
  }, 600000);

  test('exit 0, yet pyright finds imports the environment cannot resolve', async () => {
    const r = await runScript('pass-test/rstcheck/partial', 'rstcheck__rstcheck', `python -m pip install 'rstcheck-core>=1.1' typer
`);
    expect(r).toMatchObject({ status: 'fail', exit_code: 0, timed_out: false, missing: ['pytest', 'sphinx'] });
    expect(r.missing_imports).toBeGreaterThanOrEqual(2);
    expect(r.reason).toBe(`${r.missing_imports} missing imports: pytest, sphinx`);
    expect(r.log_excerpt).toMatch(/tests\/.*\.py:\d+: Import "pytest" could not be resolved/);
  }, 600000);
});

describe('nothing to run', () => {
  test('no setup script: skipped, no container', async () => {
    const r = await runScript('pass-test/inflect/none', 'jaraco__inflect', null);
    expect(r).toEqual({ status: 'skipped', reason: 'no setup script', exit_code: null, timed_out: false, missing_imports: null, missing: [], duration_s: null, log_excerpt: null, python: null, logHash: null });
  });

  test('no repository source: skipped', async () => {
    const r = await runScript('pass-test/none/ok', null, 'true\n');
    expect(r).toMatchObject({ status: 'skipped', reason: 'no repository source' });
  });

  test('an archive that does not exist: a non-retryable failure that names it', async () => {
    const activities = createPassActivities({ docker, blobs, settings });
    const input: RunSetupScriptInput = { instanceId: 'pass-test/missing/ok', source: { kind: 'archive', path: '/nonexistent/repo.tar.gz' }, scriptHash: await blobs.put('true\n'), timeoutS: 600, memoryMb: 1024, cpus: 1 };
    const err = await new MockActivityEnvironment().run(activities.runSetupScript, input).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect(err).toMatchObject({ nonRetryable: true, type: 'RepoSourceError' });
    expect((err as Error).message).toContain('/nonexistent/repo.tar.gz');
  }, 300000);

  test('the package index unreachable before the script: thrown (a harness fault, retried), never the agent\'s fail', async () => {
    // A name that never resolves: no firewall allowance is made for it, and curl fails at once.
    const activities = createPassActivities({ docker, blobs, settings: { ...settings, pipIndexUrl: 'https://index.envgap.invalid/simple/' } });
    const instanceId = 'pass-test/inflect/no-index';
    const input: RunSetupScriptInput = { instanceId, source: archive('jaraco__inflect'), scriptHash: await blobs.put('pip install more_itertools\n'), timeoutS: 600, memoryMb: 1024, cpus: 1 };
    const err = await new MockActivityEnvironment().run(activities.runSetupScript, input).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(ApplicationFailure);
    expect((err as Error).message).toMatch(/the package index https:\/\/index\.envgap\.invalid\/simple\/ does not answer from the container envgap-pass-test\.inflect\.no-index-[0-9a-f]{8}-pass-a1/);
    await expect(docker.getContainer(sandboxName(instanceId, 'pass', 1)).inspect()).rejects.toMatchObject({ statusCode: 404 });
  }, 300000);
});
