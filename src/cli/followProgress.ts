import type { WorkflowHandle } from '@temporalio/client';
import type { StudyProgress } from '../workflows/engine';
import { countsLine } from './protocols';
import { say } from './say';
import { studyPace } from './studyControl';

/**
 * Says a study's progress (done, counts, running, pace and ETA) each time it changes, until the
 * study ends; then returns its result. Any protocol's study answers the `progress` query.
 */
export async function followProgress<R>(handle: WorkflowHandle, everyMs = 2000): Promise<R> {
  const result = handle.result() as Promise<R>;
  let finished = false;
  void result.then(() => (finished = true), () => (finished = true));
  let last = '';
  while (!finished) {
    const p = await handle.query<StudyProgress>('progress').catch(() => null);
    if (p) {
      const pace = studyPace(p, Date.now());
      const line = `${p.done}/${p.total} done | ${countsLine(p.counts)}${p.paused ? ' | paused' : ''}${p.running.length ? ` | running ${p.running.length}` : ''}${pace ? ` | ${pace}` : ''}`;
      // The pace changes every poll; a line is said when what was done changes.
      const key = line.replace(/ \| throughput.*$/, '');
      if (key !== last) say(line);
      last = key;
    }
    await Promise.race([result.catch(() => undefined), new Promise((r) => setTimeout(r, everyMs))]);
  }
  return result;
}
