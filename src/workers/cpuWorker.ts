import { createHash } from 'node:crypto';
import * as os from 'node:os';
import { DefaultLogger, NativeConnection, Runtime, Worker, type LogLevel } from '@temporalio/worker';
import { sharedMachineBudget } from '../infra/machineBudget';
import { temporalTls } from '../infra/temporalTls';
import { createActivities } from '../activities';
import { createAgent } from '../agents';
import { loadCatalog } from '../catalog/catalog';
import { BlobStore } from '../db/blobs';
import type { Db } from '../db/connect';
import { sweepStaleDisks } from '../infra/diskLimit';
import { connectDocker } from '../infra/docker';
import type { Settings } from '../infra/settings';
import { cachedWorkflowBundle } from './bundle';
import { QUEUES } from './queues';
import { workerIdentity } from '../infra/workerIdentity';
import { workerActivityOptions } from './activityOptions';
import { clearStaleDrainMark, drain } from './drain';
import { deploymentVersion, promoteIfNew } from './versioning';

export interface CpuWorkerOptions {
  address: string;
  namespace: string;
  db: Db;
  settings: Settings;
  log?: (line: string) => void;
  maxConcurrentActivities?: number;
  /** `cli` for a worker inside a CLI command, `worker` for `envgap worker`. */
  role?: 'cli' | 'worker';
}

let runtimeInstalled = false;

/**
 * Several Temporal workers run and stop as one: the shared queue's and this machine's own (the
 * readiness protocol's instances keep their activities on the machine that holds their container).
 */
export class WorkerGroup {
  constructor(private readonly workers: Worker[]) {}

  async run(): Promise<void> {
    const runs = this.workers.map((w) => w.run());
    try {
      await Promise.all(runs);
    } catch (err) {
      this.shutdown();
      await Promise.allSettled(runs);
      throw err;
    }
  }

  shutdown(): void {
    for (const w of this.workers) if (w.getState() === 'RUNNING') w.shutdown();
  }
}

/**
 * This machine's own task queue: the same across restarts of a worker with the same state folder and
 * database, so a restarted worker finds the containers its predecessor left; different for workers of
 * other machines or other databases.
 */
export function ownQueue(base: string, settings: Settings): string {
  const key = createHash('sha256').update(`${settings.stateDir}\0${settings.databaseUrl ?? ''}`).digest('hex').slice(0, 12);
  return `${base}@${os.hostname()}-${key}`;
}

function installRuntime(role: CpuWorkerOptions['role']): void {
  if (runtimeInstalled) return;
  // Inside a CLI command, retried activity failures would bury the progress lines; they are in
  // the history and the database either way. ENVGAP_LOG_LEVEL overrides.
  const level = (process.env.ENVGAP_LOG_LEVEL as LogLevel | undefined) ?? (role === 'cli' ? 'ERROR' : 'WARN');
  Runtime.install({ logger: new DefaultLogger(level), telemetryOptions: { logging: { filter: { core: level, other: level } } } });
  runtimeInstalled = true;
}

function activitiesFor(o: CpuWorkerOptions, queue: string) {
  const docker = connectDocker();
  return createActivities({
    db: o.db,
    blobs: new BlobStore(o.db),
    docker,
    settings: o.settings,
    catalog: loadCatalog(),
    createAgent: (spec) => createAgent(spec, process.env, { confinement: { docker, settings: o.settings, log: o.log } }),
    log: o.log,
    ownQueue: queue,
    machine: sharedMachineBudget(),
  });
}

/**
 * Fewer activity pollers than activity slots. Each poll in flight holds a slot, and the SDK's default
 * (as many pollers as slots, up to 10) held all of them: an activity a workflow task scheduled could
 * then never be handed back eagerly with the task's completion, and waited for a poll instead (about
 * 4 ms an instance here).
 */
export function activityPollers(slots: number): { type: 'simple-maximum'; maximum: number } {
  return { type: 'simple-maximum', maximum: Math.max(1, Math.min(2, slots - 1)) };
}

/** The workers of one queue and of this machine's own, sharing a connection and the activities. */
async function queueWorkers(o: CpuWorkerOptions, queue: string, opts: { workflows: boolean; maxActivities: number }): Promise<{ worker: WorkerGroup; connection: NativeConnection; ownQueue: string; buildId: string | null }> {
  installRuntime(o.role);
  // TLS applies to a cluster's address (TEMPORAL_ADDRESS), never to the local dev server.
  const connection = await NativeConnection.connect({ address: o.address, tls: o.address === o.settings.temporalAddress ? temporalTls(o.settings.temporalTls) : undefined });
  const own = ownQueue(queue, o.settings);
  const activities = activitiesFor(o, own);
  const { cpus, memoryMb } = sharedMachineBudget().capacity;
  o.log?.(`containers share ${cpus} CPUs and ${memoryMb} MB of this machine, across all studies (ENVGAP_WORKER_CPUS, ENVGAP_WORKER_MEMORY_MB)`);
  const swept = await sweepStaleDisks(connectDocker(), o.settings.stateDir).catch(() => []);
  if (swept.length > 0) o.log?.(`removed ${swept.length} container disk(s) a killed worker left in ${o.settings.stateDir}/disks`);
  const maxActivities = o.maxConcurrentActivities ?? opts.maxActivities;
  const common = {
    connection,
    namespace: o.namespace,
    activities,
    maxConcurrentActivityTaskExecutions: maxActivities,
    activityTaskPollerBehavior: activityPollers(maxActivities),
    identity: workerIdentity(o.role ?? 'worker'),
    ...workerActivityOptions(o.role),
  };
  clearStaleDrainMark();
  // Workflow workers are versioned by their code's build id, PINNED: a study stays on the build it started on.
  const versioned = opts.workflows && o.settings.workerVersioning ? deploymentVersion() : null;
  if (versioned) {
    const how = await promoteIfNew(connection, o.namespace, versioned, common.identity);
    o.log?.(`worker build ${versioned.buildId} (deployment ${versioned.deploymentName}): ${how === 'promoted' ? 'now the current version, for new studies' : how === 'current' ? 'the current version' : 'not the current version: it serves the studies pinned to it'}`);
  }
  const shared = await Worker.create({
    ...common,
    taskQueue: queue,
    ...(opts.workflows ? { workflowBundle: await cachedWorkflowBundle(o.settings.stateDir) } : {}),
    ...(versioned ? { workerDeploymentOptions: { version: versioned, useWorkerVersioning: true, defaultVersioningBehavior: 'PINNED' as const } } : {}),
  });
  const local = await Worker.create({ ...common, taskQueue: own });
  return { worker: new WorkerGroup([shared, local]), connection, ownQueue: own, buildId: versioned?.buildId ?? null };
}

/** The cpu worker: every workflow, and the activities that need Docker but no GPU; also this machine's own queue. */
export function createCpuWorker(o: CpuWorkerOptions): Promise<{ worker: WorkerGroup; connection: NativeConnection; ownQueue: string; buildId: string | null }> {
  return queueWorkers(o, QUEUES.cpu, { workflows: true, maxActivities: 8 });
}

/**
 * The gpu worker: the readiness protocol's instances whose GPU stages run (claimed from the gpu queue,
 * then on this machine's own queue). It serves no workflows.
 */
export function createGpuWorker(o: CpuWorkerOptions): Promise<{ worker: WorkerGroup; connection: NativeConnection; ownQueue: string; buildId: string | null }> {
  return queueWorkers(o, QUEUES.gpu, { workflows: false, maxActivities: 4 });
}

export interface RunningWorker {
  stop(): Promise<void>;
}

/**
 * Runs a worker until `stop()`, which drains it (it stops polling, and the activities it runs finish;
 * `log` hears what it waits for) and closes its connection.
 */
export function runInBackground({ worker, connection }: { worker: WorkerGroup; connection: NativeConnection }, log?: (line: string) => void): RunningWorker {
  const running = worker.run();
  return {
    async stop() {
      await drain(() => worker.shutdown(), running, log);
      await connection.close();
    },
  };
}
