import { Client, Connection } from '@temporalio/client';
import { BlobStore } from '../db/blobs';
import { migrateToLatest, openDatabase, type Db } from '../db/connect';
import { ensurePrivatePostgres } from '../infra/postgres';
import { loadSettings, type Settings } from '../infra/settings';
import { ensureTemporal, type TemporalEndpoint } from '../infra/temporal';
import { temporalTls } from '../infra/temporalTls';
import { createCpuWorker, runInBackground, type RunningWorker } from '../workers/cpuWorker';
import { pollerAlive } from '../infra/workerIdentity';
import { QUEUES } from '../workers/queues';
import { say } from './say';

export interface CliContext {
  settings: Settings;
  temporal: TemporalEndpoint;
  client: Client;
  connection: Connection;
  db: Db | null;
  close(): Promise<void>;
}

export async function openTemporal(settings = loadSettings()) {
  const temporal = await ensureTemporal(settings, say);
  const connection = await Connection.connect({ address: temporal.address, tls: settings.temporalAddress ? temporalTls(settings.temporalTls) : undefined });
  const client = new Client({ connection, namespace: temporal.namespace });
  return { settings, temporal, connection, client };
}

/**
 * The results database: DATABASE_URL (a Postgres server, or `pglite:` for the single-process embedded
 * PGlite), else the state folder's private Postgres server, started here when it does not answer.
 */
export async function openDb(settings: Settings): Promise<Db> {
  const url = settings.databaseUrl ?? (await ensurePrivatePostgres(settings, say)).url;
  const db = await openDatabase({ url, stateDir: settings.stateDir });
  try {
    await migrateToLatest(db);
  } catch (err) {
    await db.destroy().catch(() => {});
    throw err;
  }
  return db;
}

export async function openContext(opts: { db: boolean }): Promise<CliContext> {
  const t = await openTemporal();
  const db = opts.db ? await openDb(t.settings) : null;
  return {
    ...t,
    db,
    async close() {
      await t.connection.close();
      await db?.destroy();
    },
  };
}

export async function workflowPollers(ctx: Pick<CliContext, 'client' | 'temporal'>): Promise<number> {
  const r = await ctx.client.workflowService.describeTaskQueue({
    namespace: ctx.temporal.namespace,
    taskQueue: { name: QUEUES.cpu },
    taskQueueType: 1, // TASK_QUEUE_TYPE_WORKFLOW
  });
  return (r.pollers ?? []).filter((p) => pollerAlive(p.identity ?? '', p.lastAccessTime)).length;
}

/** Live workers polling a queue for activities (the gpu queue has no workflows). */
export async function activityPollers(ctx: Pick<CliContext, 'client' | 'temporal'>, queue: string): Promise<number> {
  const r = await ctx.client.workflowService.describeTaskQueue({
    namespace: ctx.temporal.namespace,
    taskQueue: { name: queue },
    taskQueueType: 2, // TASK_QUEUE_TYPE_ACTIVITY
  });
  return (r.pollers ?? []).filter((p) => pollerAlive(p.identity ?? '', p.lastAccessTime)).length;
}

/** A worker inside this process when none polls the queue, so one command runs a whole study. */
export async function startWorkerIfNone(ctx: CliContext): Promise<RunningWorker | null> {
  if ((await workflowPollers(ctx)) > 0) {
    say('a worker already polls the cpu queue; using it');
    return null;
  }
  if (!ctx.db) throw new Error('an in-process worker needs the database');
  say('no worker polls the cpu queue; starting one in this process');
  return startInProcessWorker(ctx);
}

/** A cpu worker inside this command; it drains when stopped, saying what it waits for. */
export async function startInProcessWorker(ctx: CliContext): Promise<RunningWorker> {
  if (!ctx.db) throw new Error('an in-process worker needs the database');
  return runInBackground(
    await createCpuWorker({
      address: ctx.temporal.address,
      namespace: ctx.temporal.namespace,
      db: ctx.db,
      settings: ctx.settings,
      log: (l) => say(l),
      role: 'cli',
    }),
    (l) => say(l),
  );
}
