import { DEFAULT_WATCH, INITIAL_WATCH, watchStep, type PollerLook, type WatchOptions } from '../../../src/cli/workerWatch';

/** The actions a sequence of looks at the cpu queue's pollers gives, one list per look. */
function run(looks: PollerLook[], opts: Partial<WatchOptions> = {}): string[][] {
  let state = INITIAL_WATCH;
  return looks.map((look) => {
    const step = watchStep(state, look, { ...DEFAULT_WATCH, ...opts });
    state = step.state;
    return step.actions.map((a) => `${a.kind}: ${a.line}`);
  });
}
const n = (workflow: number, activity = workflow): PollerLook => ({ workflow, activity });

test('no worker at the first look: start one at once', () => {
  const out = run([n(0), n(1), n(0)]);
  expect(out[0]).toEqual(['start-worker: no worker polls the cpu queue; starting one in this process']);
  // Its own worker polls from then on; nothing more to watch.
  expect(out.slice(1)).toEqual([[], []]);
});

test('the worker relied on goes: after two looks without it, start one and say why', () => {
  const out = run([n(1), n(1), n(0), n(0), n(0)]);
  expect(out[0][0]).toMatch(/^say: a worker already polls the cpu queue; using it/);
  expect(out[1]).toEqual([]);
  expect(out[2]).toEqual([]); // one look without it could be a restart
  expect(out[3]).toEqual(['start-worker: the worker this study relied on is gone: no worker polls the cpu queue; starting one in this process']);
  expect(out[4]).toEqual([]);
});

test('a worker that comes back within the confirmation is not replaced', () => {
  expect(run([n(2), n(0), n(1), n(0), n(1)]).flat().filter((a) => a.startsWith('start-worker'))).toEqual([]);
});

test('activity pollers alone do not let a study progress', () => {
  const out = run([n(1), n(0, 2), n(0, 2)]);
  expect(out[2]).toEqual(['start-worker: the worker this study relied on is gone: no worker polls the cpu queue (2 activity poller(s) left, no workflow poller); starting one in this process']);
  // A busy worker polls no activities while its slots are full: that is no reason to act.
  expect(run([n(1), n(1, 0), n(1, 0), n(1, 0)]).flat().slice(1)).toEqual([]);
});

test('--no-worker: warns loudly at once, again every few looks, and says when a worker is back', () => {
  const out = run([n(0), n(0), n(0), n(0), n(0), n(0), n(0), n(1), n(0), n(0)], { mayStart: false, warnEveryLooks: 3 });
  const warned = out.map((a) => a.some((l) => /^say: WARNING: .*no worker polls the cpu queue: the study cannot progress/.test(l)));
  // Back for a look, then gone again: after the confirmation it warns again, naming the worker gone.
  expect(warned).toEqual([true, false, false, true, false, false, true, false, false, true]);
  expect(out[7]).toEqual(['say: a worker polls the cpu queue again; the study proceeds']);
  expect(out[9][0]).toMatch(/^say: WARNING: the worker this study relied on is gone: no worker polls the cpu queue/);
  expect(out.flat().some((a) => a.startsWith('start-worker'))).toBe(false);
});

test('looks Temporal does not answer change nothing; the third in a row is said once', () => {
  const out = run([n(1), null, null, null, null, n(1)]);
  expect(out.slice(1, 5)).toEqual([[], [], ["say: cannot see the cpu queue's pollers (Temporal does not answer); still watching"], []]);
  expect(out[5]).toEqual([]);
});
