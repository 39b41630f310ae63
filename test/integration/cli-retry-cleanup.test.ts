import type Docker from 'dockerode';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as tar from 'tar-stream';
import { cleanupContainers, INSTANCE_LABEL } from '../../src/cli/cleanup';
import { retryInstance } from '../../src/cli/instance';
import { workflowStatus } from '../../src/cli/workflowStatus';
import { connectDocker } from '../../src/infra/docker';
import { freshDatabase } from '../helpers/postgres';
import { startDevServer, type DevServer } from '../helpers/temporal';

// `instance retry` while its study runs, and `cleanup`, against a real Temporal dev server, Postgres
// and Docker. No worker polls the queue these workflows are started on, so a started one stays RUNNING.
const QUEUE = 'envgap-test-no-worker';
const run = randomBytes(3).toString('hex');
const IMAGE = `envgap-test/empty:${run}`;
let server: DevServer;
let database: Awaited<ReturnType<typeof freshDatabase>>;
let docker: Docker;
const savedEnv = { ...process.env };

beforeAll(async () => {
  server = await startDevServer();
  database = await freshDatabase();
  Object.assign(process.env, { TEMPORAL_ADDRESS: server.address, DATABASE_URL: database.url, ENVGAP_STATE: fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-clistate-')) });
  docker = connectDocker();
  // An empty image: the containers are only created, never started, which is all cleanup looks at.
  const pack = tar.pack();
  pack.finalize();
  await new Promise((resolve, reject) =>
    docker.importImage(pack as unknown as NodeJS.ReadableStream, { repo: IMAGE.split(':')[0], tag: run }, (err, stream) =>
      err ? reject(err) : docker.modem.followProgress(stream!, (e: Error | null) => (e ? reject(e) : resolve(null))),
    ),
  );
}, 120000);

afterAll(async () => {
  process.env = savedEnv;
  for (const c of await docker.listContainers({ all: true, filters: { label: [`envgap.test=${run}`] } })) await docker.getContainer(c.Id).remove({ force: true });
  await docker.getImage(IMAGE).remove().catch(() => undefined);
  await database?.drop();
  await server?.stop();
});

async function startIdle(workflowType: string, workflowId: string) {
  return server.client.workflow.start(workflowType, { workflowId, taskQueue: QUEUE, args: [] });
}

test('instance retry refuses while the study runs, and starts nothing', async () => {
  const study = `busy-${run}`;
  const handle = await startIdle('studyWorkflow', study);
  const id = `${study}/replay/python/p_01/1`;
  await expect(retryInstance(id)).rejects.toThrow(`study "${study}" is still running; instance ${id} will be run by it`);
  expect(await workflowStatus(server.client, id)).toBeNull();

  // Once the study is closed the retry goes on to its own checks (here: the study was never recorded).
  await handle.terminate('test');
  await expect(retryInstance(id)).rejects.toThrow(`study "${study}" is not in the database`);
}, 60000);

test('cleanup removes the labelled containers whose workflow is not running and keeps the others', async () => {
  const study = `clean-${run}`;
  const running = `${study}/replay/python/p_01/1`;
  const closed = `${study}/replay/python/p_02/1`;
  const unknown = `${study}/replay/python/p_03/1`;
  await startIdle('instanceWorkflow', running);
  await (await startIdle('instanceWorkflow', closed)).terminate('test');
  const create = (instance: string, name: string) =>
    docker.createContainer({ Image: IMAGE, Cmd: ['/none'], name: `${name}-${run}`, Labels: { [INSTANCE_LABEL]: instance, 'envgap.iteration': '0', 'envgap.test': run } });
  await create(running, 'envgap-running');
  await create(closed, 'envgap-closed');
  await create(unknown, 'envgap-unknown');
  await create(closed, 'envgap-closed-2');

  const r = await cleanupContainers(docker, server.client, { study });
  expect(r.kept).toEqual([{ name: `envgap-running-${run}`, instance: running, workflow: 'RUNNING' }]);
  expect(r.removed.map((c) => `${c.name} ${c.workflow}`).sort()).toEqual([
    `envgap-closed-2-${run} TERMINATED`, `envgap-closed-${run} TERMINATED`, `envgap-unknown-${run} null`,
  ].sort());
  const left = await docker.listContainers({ all: true, filters: { label: [`envgap.test=${run}`] } });
  expect(left.map((c) => c.Names[0])).toEqual([`/envgap-running-${run}`]);
  expect(r.removedImages).toEqual([]);
}, 60000);

test('cleanup also removes readiness containers and frozen environments of instances that are not running', async () => {
  const study = `rclean-${run}`;
  const running = `${study}/replay/numpy-stats/1`;
  const gone = `${study}/replay/cext-kernels/1`;
  await startIdle('readinessInstanceWorkflow', running);
  const session = await docker.createContainer({ Image: IMAGE, Cmd: ['/none'], name: `envgap-r-gone-${run}`, Labels: { 'envgap.readiness': gone, 'envgap.test': run } });
  await docker.createContainer({ Image: IMAGE, Cmd: ['/none'], name: `envgap-r-running-${run}`, Labels: { 'envgap.readiness': running, 'envgap.test': run } });
  // A frozen environment carries its session container's label, as docker commit keeps it.
  await session.commit({ repo: 'envgap-frozen', tag: `test-${run}` });

  const r = await cleanupContainers(docker, server.client, { study });
  expect(r.removed.map((c) => c.name)).toEqual([`envgap-r-gone-${run}`]);
  expect(r.kept.map((c) => c.name)).toEqual([`envgap-r-running-${run}`]);
  expect(r.removedImages).toEqual([{ name: `envgap-frozen:test-${run}`, instance: gone, workflow: null }]);
  expect(await docker.listImages({ filters: { reference: [`envgap-frozen:test-${run}`] } })).toEqual([]);
}, 60000);
