import { Context } from '@temporalio/activity';
import { CancelledFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { beatIntervalMs, heartbeatInterceptors, inFlightActivities, withHeartbeat } from '../../../src/activities/heartbeat';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An environment whose activities beat every 20 ms (a 60 ms heartbeat timeout), with or without the worker's interceptor. */
function environment(opts: { isLocal?: boolean; interceptor: boolean }) {
  const env = new MockActivityEnvironment({ isLocal: opts.isLocal ?? false, heartbeatTimeoutMs: 60 }, { interceptors: opts.interceptor ? [heartbeatInterceptors] : [] });
  const beats: unknown[] = [];
  env.on('heartbeat', (d: unknown) => beats.push(d));
  return { env, beats };
}

test('the beat interval: 5 s, or a third of a shorter heartbeat timeout', () => {
  expect(beatIntervalMs(undefined)).toBe(5000);
  expect(beatIntervalMs(30_000)).toBe(5000);
  expect(beatIntervalMs(1000)).toBe(333);
  expect(beatIntervalMs(0)).toBe(5000);
});

test('the worker beats for an activity from its first moment, however long it says nothing', async () => {
  const { env, beats } = environment({ interceptor: true });
  await env.run(async () => {
    await sleep(150); // nothing called: no withHeartbeat, no heartbeat of its own
    return 'done';
  });
  expect(beats.length).toBeGreaterThanOrEqual(4); // at once, then every 20 ms
});

test('withHeartbeat under the interceptor adds its details and no second timer', async () => {
  const { env, beats } = environment({ interceptor: true });
  await env.run(async () => {
    await sleep(50);
    await withHeartbeat(() => sleep(100), () => ({ phase: 'work' }));
    await sleep(50);
  });
  expect(beats[0]).toBeUndefined();
  expect(beats).toContainEqual({ phase: 'work' });
  // One timer over 200 ms at 20 ms: about 10 beats and one at the start of the details; two timers would give about 15.
  expect(beats.length).toBeLessThanOrEqual(13);
  expect(beats[beats.length - 1]).toBeUndefined(); // the details go with their step
});

test('without the interceptor, withHeartbeat beats on its own timer, with its details', async () => {
  const { env, beats } = environment({ interceptor: false });
  await env.run(() => withHeartbeat(() => sleep(60), () => ({ phase: 'work' })));
  expect(beats.length).toBeGreaterThanOrEqual(2);
  expect(beats[0]).toEqual({ phase: 'work' });
});

test('a local activity sends no heartbeat', async () => {
  for (const interceptor of [true, false]) {
    const { env, beats } = environment({ isLocal: true, interceptor });
    await env.run(() => withHeartbeat(() => sleep(60), () => ({ phase: 'work' })));
    expect(beats).toEqual([]);
  }
});

test('an abort is reported as the cancellation, and the activity is listed while it runs', async () => {
  const { env } = environment({ interceptor: true });
  const running = env.run(
    () =>
      new Promise((_, reject) => {
        const signal = Context.current().cancellationSignal;
        signal.addEventListener('abort', () => reject(new Error('the container was removed')), { once: true });
      }),
  );
  expect(inFlightActivities()).toEqual([expect.objectContaining({ type: 'unknown' })]);
  env.cancel();
  await expect(running).rejects.toBeInstanceOf(CancelledFailure);
  expect(inFlightActivities()).toEqual([]);
});
