import { MockActivityEnvironment } from '@temporalio/testing';
import { withHeartbeat } from '../../../src/activities/heartbeat';

// A local activity (a replay agent's call) has no heartbeat to send: the worker would only log a warning per beat.
async function beatsOf(isLocal: boolean): Promise<unknown[]> {
  const env = new MockActivityEnvironment({ isLocal });
  const beats: unknown[] = [];
  env.on('heartbeat', (d: unknown) => beats.push(d));
  await env.run(() => withHeartbeat(() => new Promise((resolve) => setTimeout(resolve, 60)), () => ({ phase: 'work' }), 20));
  return beats;
}

test('a queued activity beats at once and on its timer, with its details', async () => {
  const beats = await beatsOf(false);
  expect(beats.length).toBeGreaterThanOrEqual(2);
  expect(beats[0]).toEqual({ phase: 'work' });
});

test('a local activity sends no heartbeat', async () => {
  expect(await beatsOf(true)).toEqual([]);
});
