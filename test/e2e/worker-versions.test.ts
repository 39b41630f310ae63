import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { connectDocker } from '../../src/infra/docker';
import { QUEUES } from '../../src/workers/queues';
import type { studyWorkflow } from '../../src/workflows/study';
import { REPO_ROOT } from '../helpers/harness';
import { quickstartPythonStudy } from '../helpers/studies';
import { waitFor } from '../helpers/waitFor';
import { useWorkerProcesses } from '../helpers/workerProcesses';

// Versioned workers (worker deployment versioning, PINNED): a study started on build A finishes on A
// while a worker of build B (a changed instance workflow) takes the studies started after it.
const h = useWorkerProcesses();

/** A copy of the built CLI whose instance workflow differs: another build id. */
function buildB(): string {
  const app = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-build-b-'));
  for (const entry of fs.readdirSync(REPO_ROOT)) {
    // Node loads a module from its real path: bin/ and dist/ are copies, so that bin finds this dist.
    if (entry === 'dist' || entry === 'bin' || entry.startsWith('.')) continue;
    fs.symlinkSync(path.join(REPO_ROOT, entry), path.join(app, entry));
  }
  fs.cpSync(path.join(REPO_ROOT, 'dist'), path.join(app, 'dist'), { recursive: true });
  fs.cpSync(path.join(REPO_ROOT, 'bin'), path.join(app, 'bin'), { recursive: true });
  const instance = path.join(app, 'dist/src/workflows/instance.js');
  fs.appendFileSync(instance, '\n// build B: the instance workflow as changed by an upgrade\n');
  return path.join(app, 'bin/envgap.js');
}

const buildIdOf = (output: string) => /worker build (\w+)/.exec(output)?.[1];
const study = (name: string, tasks: string[]) => quickstartPythonStudy(name, tasks);
async function pinnedBuild(id: string): Promise<string | undefined> {
  const d = await h.server.client.workflow.getHandle(id).describe();
  const info = d.raw.workflowExecutionInfo?.versioningInfo;
  return info?.deploymentVersion?.buildId ?? undefined;
}

test('a running study stays on the build it started on; a new study runs on the new build', async () => {
  const versioned = { ENVGAP_WORKER_VERSIONING: 'on' };
  const a = h.start(fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-va-')), { env: versioned });
  await waitFor('worker A to say its build', () => buildIdOf(a.output()) !== undefined, 120000);
  const buildA = buildIdOf(a.output())!;
  expect(a.output()).toContain(`worker build ${buildA} (deployment envgap): now the current version`);

  const first = study(`versions-a-${process.pid}`, ['p_30', 'p_04', 'p_43']);
  const handleA = await h.server.client.workflow.start<typeof studyWorkflow>('studyWorkflow', { workflowId: first.name, taskQueue: QUEUES.cpu, args: [first] });
  await waitFor('study A\'s first instance container', async () => (await connectDocker().listContainers({ filters: { label: ['envgap.instance'] } })).some((c) => c.Labels['envgap.instance']!.startsWith(`${first.name}/`)), 180000);

  const b = h.start(fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-vb-')), { cli: buildB(), env: versioned });
  await waitFor('worker B to say its build', () => buildIdOf(b.output()) !== undefined, 120000).catch((err: Error) => {
    throw new Error(`${err.message}; worker B (exit ${b.exitCode}) wrote:\n${b.output()}`);
  });
  const buildB_ = buildIdOf(b.output())!;
  expect(buildB_).not.toBe(buildA);
  expect(b.output()).toContain('now the current version, for new studies');

  const second = study(`versions-b-${process.pid}`, ['p_13']);
  const summaryB = await h.server.client.workflow.execute<typeof studyWorkflow>('studyWorkflow', { workflowId: second.name, taskQueue: QUEUES.cpu, args: [second] });
  const summaryA = await handleA.result();
  expect(summaryA.progress).toMatchObject({ done: 3, counts: { error: 0 } });
  expect(summaryB.progress).toMatchObject({ done: 1, counts: { error: 0 } });

  expect(await pinnedBuild(first.name)).toBe(buildA);
  for (const t of ['p_30', 'p_04', 'p_43']) expect(await pinnedBuild(`${first.name}/replay/python/${t}/1`)).toBe(buildA);
  expect(await pinnedBuild(second.name)).toBe(buildB_);
  expect(await pinnedBuild(`${second.name}/replay/python/p_13/1`)).toBe(buildB_);
}, 600000);
