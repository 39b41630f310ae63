import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { drainLine } from '../../../src/workers/drain';
import { drainMarker, pollerAlive } from '../../../src/infra/workerIdentity';

test('a draining worker says what it waits for, and for how long at most', () => {
  const now = 1_000_000;
  expect(drainLine([], now)).toBeNull();
  const line = drainLine([{ type: 'executeProject', workflowId: 's2/replay/python/p_30/1', startedMs: now - 40_000, timeoutMs: 600_000 }], now)!;
  expect(line).toContain('waits for 1 activity it runs to finish');
  expect(line).toContain('executeProject of s2/replay/python/p_30/1 (running 40 s)');
  expect(line).toContain('at most 9 min');
  const many = Array.from({ length: 5 }, (_, i) => ({ type: 'callAgent', workflowId: `s/${i}`, startedMs: now, timeoutMs: 60_000 }));
  expect(drainLine(many, now)).toContain('5 activities');
  expect(drainLine(many, now)).toContain('and 2 more');
});

test("a live envgap process that drains is no poller; its mark's going makes it one again", async () => {
  const child = spawn('sleep', ['30']);
  try {
    const identity = `envgap-cli-${child.pid}@${os.hostname()}`;
    expect(pollerAlive(identity, null)).toBe(true);
    fs.mkdirSync(path.dirname(drainMarker(child.pid!)), { recursive: true });
    fs.writeFileSync(drainMarker(child.pid!), 'draining\n');
    expect(pollerAlive(identity, null)).toBe(false);
    fs.rmSync(drainMarker(child.pid!));
    expect(pollerAlive(identity, null)).toBe(true);
  } finally {
    child.kill();
  }
});
