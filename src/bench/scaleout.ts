/**
 * Benchmark of scale-out (not a test): one synthetic study of N fast instances (the replay agent with
 * a trivial Python program, no dependencies, half a CPU each) on 1, 2 and 4 `envgap worker` processes,
 * each with a state folder and a machine budget of its own (each acts as a machine), against a
 * throw-away Temporal dev server and a Postgres (DATABASE_URL, or the state folder's private one). Prints instances per minute and the speed-up over one worker, the
 * history events per instance and the results database's bytes per instance.
 *   node dist/src/bench/scaleout.js [N] [worker counts]     e.g. 200 1,2,4
 */
import { Client } from '@temporalio/client';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sql } from 'kysely';
import { openDb } from '../cli/context';
import { DEFAULT_LIMITS, type StudyInput } from '../domain/study';
import { ensurePrivatePostgres } from '../infra/postgres';
import { loadSettings } from '../infra/settings';
import { startEphemeralDevServer } from '../infra/temporal';
import { QUEUES } from '../workers/queues';
import type { studyWorkflow } from '../workflows/study';
import { runBench } from './run';

const ROOT = path.resolve(__dirname, '../../..');

/** A replay corpus whose every trial is the same trivial program: <root>/python/p_04/<trial>/0/main.py. */
function trivialCorpus(trials: number): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-scaleout-'));
  for (let t = 1; t <= trials; t++) {
    const dir = path.join(root, 'python', 'p_04', String(t), '0');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'main.py'), 'print("ok")\n');
    fs.writeFileSync(path.join(dir, 'requirements.txt'), '');
  }
  return root;
}

async function main() {
  const n = Number(process.argv[2] ?? 200);
  const counts = (process.argv[3] ?? '1,2,4').split(',').map(Number);
  const settings = loadSettings();
  const server = await startEphemeralDevServer(settings.temporalCli);
  const db = await openDb(settings);
  const databaseUrl = settings.databaseUrl ?? (await ensurePrivatePostgres(settings, () => undefined)).url;
  const client = new Client({ connection: server.connection });
  const corpus = trivialCorpus(n);
  const results: { workers: number; perMin: number; events: number; bytes: number }[] = [];
  try {
    for (const k of counts) {
      const workers: ChildProcess[] = [];
      for (let i = 0; i < k; i++) {
        const state = fs.mkdtempSync(path.join(os.tmpdir(), `envgap-scaleout-w${i}-`));
        workers.push(spawn(process.execPath, [path.join(ROOT, 'bin/envgap.js'), 'worker'], { env: { ...process.env, TEMPORAL_ADDRESS: server.address, DATABASE_URL: databaseUrl, ENVGAP_STATE: state, ENVGAP_WORKER_VERSIONING: 'off' }, stdio: 'ignore' }));
      }
      const name = `scaleout-${k}-${process.pid}`;
      const study: StudyInput = {
        name,
        agents: [{ kind: 'replay', name: 'replay', path: corpus }],
        languages: ['python'],
        tasks: [{ id: 'p_04', title: 'trivial', domain: 'bench' }],
        trials: n,
        budget: 0,
        concurrency: 4 * k,
        // Half a CPU each: one worker's machine budget (2 CPUs here) admits 4 containers at once, as the study asks.
        limits: { ...DEFAULT_LIMITS, cpus: 0.5 },
      };
      const before = Number((await sql<{ b: string }>`select pg_database_size(current_database()) as b`.execute(db)).rows[0]!.b);
      const started = Date.now();
      await client.workflow.execute<typeof studyWorkflow>('studyWorkflow', { workflowId: name, taskQueue: QUEUES.cpu, args: [study] });
      const minutes = (Date.now() - started) / 60_000;
      const after = Number((await sql<{ b: string }>`select pg_database_size(current_database()) as b`.execute(db)).rows[0]!.b);
      const sample = Array.from({ length: Math.min(10, n) }, (_, i) => `${name}/replay/python/p_04/${i + 1}`);
      let events = 0;
      for (const id of sample) events += (await client.workflow.getHandle(id).fetchHistory()).events?.length ?? 0;
      for (const w of workers) w.kill('SIGTERM');
      await Promise.all(workers.map((w) => new Promise((r) => (w.exitCode !== null ? r(null) : w.once('exit', r)))));
      results.push({ workers: k, perMin: n / minutes, events: events / sample.length, bytes: (after - before) / n });
      console.log(`${k} worker(s): ${n} instances in ${(minutes * 60).toFixed(0)} s = ${(n / minutes).toFixed(1)} instances/min`);
    }
    const base = results[0]!.perMin;
    console.log(`scale-out, ${n} trivial Python instances, ${os.cpus().length} CPUs`);
    for (const r of results) console.log(`  ${r.workers} worker(s): ${r.perMin.toFixed(1)} instances/min, speed-up ${(r.perMin / base).toFixed(2)}x, ${r.events.toFixed(0)} history events/instance, ${(r.bytes / 1024).toFixed(1)} KiB of results database/instance`);
    console.log('targets: history events per instance <= 200');
  } finally {
    await db.destroy();
    await server.stop();
  }
}

runBench(main);
