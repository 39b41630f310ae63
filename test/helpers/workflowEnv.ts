import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker, type LogLevel } from '@temporalio/worker';
import * as fs from 'node:fs';
import { loadSettings } from '../../src/infra/settings';
import { WORKFLOWS_PATH } from '../../src/workers/bundle';

/**
 * The workflow tier's Temporal: `TestWorkflowEnvironment.createLocal` on the cached Temporal CLI
 * (scripts/ensure-temporal.sh), in memory, on a free port. No Docker, no Postgres. @temporalio/testing
 * has no server-less way to run workflows (the time-skipping server is a downloaded binary too), so
 * the CLI is the one thing this tier provisions.
 */
export async function startWorkflowEnvironment(): Promise<TestWorkflowEnvironment> {
  const cli = loadSettings().temporalCli;
  if (!fs.existsSync(cli)) {
    throw new Error(`the Temporal CLI is not at ${cli}: run scripts/ensure-temporal.sh (npm run test:workflows does) or set ENVGAP_TEMPORAL_CLI`);
  }
  quietRuntime();
  return TestWorkflowEnvironment.createLocal({
    server: { executable: { type: 'existing-path', path: cli }, ip: '127.0.0.1', log: { format: 'pretty', level: 'error' } },
  });
}

let installed = false;
/** Activity failures the tests provoke on purpose would fill the output at the default level. */
function quietRuntime(): void {
  if (installed) return;
  const level = (process.env.ENVGAP_LOG_LEVEL as LogLevel | undefined) ?? 'ERROR';
  try {
    Runtime.install({ logger: new DefaultLogger(level), telemetryOptions: { logging: { filter: { core: level, other: level } } } });
  } catch {
    // already installed in this process
  }
  installed = true;
}

export interface TestWorker {
  taskQueue: string;
  stop(): Promise<void>;
}

/**
 * A worker over the real workflow code (`src/workflows`) and the given activities (fakes), on its
 * own task queue. Heartbeats are not throttled, so a cancellation reaches an activity at once.
 */
export async function startTestWorkflowWorker(env: TestWorkflowEnvironment, taskQueue: string, activities: object): Promise<TestWorker> {
  const worker = await Worker.create({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    workflowsPath: WORKFLOWS_PATH,
    activities,
    maxHeartbeatThrottleInterval: '100ms',
    defaultHeartbeatThrottleInterval: '100ms',
  });
  const running = worker.run();
  return {
    taskQueue,
    async stop() {
      worker.shutdown();
      await running;
    },
  };
}
