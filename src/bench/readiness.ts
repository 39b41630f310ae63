/**
 * Benchmark of the readiness protocol: a replay instance of the readiness corpus's tiny repository
 * (numpy-stats) with warm caches, N times after one warm-up. From each instance's history: its wall
 * time; the agent's share (the session's steps); the probes' share (C0..C5); and envgap's own
 * overhead, the rest (claiming a worker, opening and freezing the container, records).
 *   node dist/src/bench/readiness.js [N]
 */
import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseReadinessStudyFile } from '../cli/readinessStudyFile';
import { QUEUES } from '../workers/queues';
import type { readinessStudyWorkflow } from '../workflows/readiness';
import { withRealWorker } from './realWorker';
import { runBench } from './run';

const ROOT = path.resolve(__dirname, '../../..');
const ms = (t: temporal.api.common.v1.IPayload | { seconds?: unknown; nanos?: number | null } | null | undefined) => {
  const ts = t as { seconds?: { toNumber(): number } | number; nanos?: number } | null;
  if (!ts) return 0;
  const s = typeof ts.seconds === 'number' ? ts.seconds : (ts.seconds?.toNumber() ?? 0);
  return s * 1000 + (ts.nanos ?? 0) / 1e6;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function instanceShares(client: Client, id: string) {
  const history = await client.workflow.getHandle(id).fetchHistory();
  const events = history.events ?? [];
  const scheduled = new Map<string, { type: string; at: number }>();
  const spent = { agent: 0, probes: 0 };
  const own = new Map<string, number>();
  for (const e of events) {
    const at = ms(e.eventTime);
    if (e.activityTaskScheduledEventAttributes) scheduled.set(String(e.eventId), { type: e.activityTaskScheduledEventAttributes.activityType?.name ?? '', at });
    const done = e.activityTaskCompletedEventAttributes;
    if (done) {
      const s = scheduled.get(String(done.scheduledEventId));
      if (!s) continue;
      if (s.type === 'runSessionStep') spent.agent += at - s.at;
      else if (s.type.startsWith('probe')) spent.probes += at - s.at;
      else own.set(s.type, (own.get(s.type) ?? 0) + at - s.at);
    }
  }
  const wall = ms(events[events.length - 1]?.eventTime) - ms(events[0]?.eventTime);
  return { wall, ...spent, envgap: wall - spent.agent - spent.probes, own };
}

async function main() {
  const n = Number(process.argv[2] ?? 3);
  const file = path.join(ROOT, 'studies/readiness.yaml');
  const base = fs.readFileSync(file, 'utf8').replace(/repos:[\s\S]*?(?=trials:)/, (repos) => repos.split(/\n(?=  - id: )/)[0] + '\n' + repos.split(/\n(?=  - id: )/).find((r) => r.includes('id: numpy-stats'))!.trimEnd() + '\n');
  await withRealWorker(async ({ client }) => {
    const rows: Awaited<ReturnType<typeof instanceShares>>[] = [];
    for (let i = 0; i <= n; i++) {
      const study = parseReadinessStudyFile(base.replace('name: readiness-quickstart', `name: bench-${i}`), file);
      await client.workflow.execute<typeof readinessStudyWorkflow>('readinessStudyWorkflow', { workflowId: study.name, taskQueue: QUEUES.cpu, args: [study] });
      if (i > 0) rows.push(await instanceShares(client, `bench-${i}/replay/numpy-stats/1`));
    }
    console.log(`readiness instance, numpy-stats, replay, warm caches: ${n} runs after one warm-up (median)`);
    const m = (k: 'wall' | 'agent' | 'probes' | 'envgap') => median(rows.map((r) => r[k]));
    console.log(`instance ${(m('wall') / 1000).toFixed(1)} s: agent ${(m('agent') / 1000).toFixed(1)} s, probes ${(m('probes') / 1000).toFixed(1)} s (${((100 * m('probes')) / m('wall')).toFixed(0)}%), envgap ${(m('envgap') / 1000).toFixed(1)} s (${((100 * m('envgap')) / m('wall')).toFixed(1)}%)`);
    const types = [...new Set(rows.flatMap((r) => [...r.own.keys()]))];
    const parts = types.map((t) => [t, median(rows.map((r) => r.own.get(t) ?? 0))] as const).sort((a, b) => b[1] - a[1]);
    console.log(`envgap's own activities (median ms): ${parts.map(([t, v]) => `${t} ${Math.round(v)}`).join(', ')}; between activities ${Math.round(m('envgap') - parts.reduce((sum, [, v]) => sum + v, 0))}`);
    console.log('targets: instance <= 60 s, envgap overhead <= 10%');
  });
}

runBench(main);
