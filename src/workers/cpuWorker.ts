import { DefaultLogger, NativeConnection, Runtime, Worker, type LogLevel } from '@temporalio/worker';
import { createActivities } from '../activities';
import { createAgent } from '../agents';
import { loadCatalog } from '../catalog/catalog';
import { BlobStore } from '../db/blobs';
import type { Db } from '../db/connect';
import { connectDocker } from '../infra/docker';
import type { Settings } from '../infra/settings';
import { cachedWorkflowBundle } from './bundle';
import { QUEUES } from './queues';
import { workerIdentity } from './identity';

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

/** The cpu worker: every workflow, and the activities that need Docker but no GPU. */
export async function createCpuWorker(o: CpuWorkerOptions): Promise<{ worker: Worker; connection: NativeConnection }> {
  if (!runtimeInstalled) {
    // Inside a CLI command, retried activity failures would bury the progress lines; they are in
    // the history and the database either way. ENVGAP_LOG_LEVEL overrides.
    const level = (process.env.ENVGAP_LOG_LEVEL as LogLevel | undefined) ?? (o.role === 'cli' ? 'ERROR' : 'WARN');
    Runtime.install({ logger: new DefaultLogger(level), telemetryOptions: { logging: { filter: { core: level, other: level } } } });
    runtimeInstalled = true;
  }
  const connection = await NativeConnection.connect({ address: o.address });
  const activities = createActivities({
    db: o.db,
    blobs: new BlobStore(o.db),
    docker: connectDocker(),
    settings: o.settings,
    catalog: loadCatalog(),
    createAgent: (spec) => createAgent(spec),
    log: o.log,
  });
  const worker = await Worker.create({
    connection,
    namespace: o.namespace,
    taskQueue: QUEUES.cpu,
    workflowBundle: await cachedWorkflowBundle(o.settings.stateDir),
    activities,
    maxConcurrentActivityTaskExecutions: o.maxConcurrentActivities ?? 8,
    identity: workerIdentity(o.role ?? 'worker'),
  });
  return { worker, connection };
}

export interface RunningWorker {
  stop(): Promise<void>;
}

/** Runs a worker until `stop()`, which drains it and closes its connection. */
export function runInBackground({ worker, connection }: { worker: Worker; connection: NativeConnection }): RunningWorker {
  const running = worker.run();
  return {
    async stop() {
      worker.shutdown();
      await running;
      await connection.close();
    },
  };
}
