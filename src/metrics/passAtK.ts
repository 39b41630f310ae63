import { agentsOf, languagesOf, type Instance } from './instances';
import type { FlakyTask, PassAtKRow } from './report';

/**
 * The unbiased estimator of pass@k for one task with n trials of which c succeeded (Chen et al.,
 * 2021): 1 - C(n-c, k) / C(n, k), computed as a product to stay exact for large n.
 */
export function passAtK(n: number, c: number, k: number): number {
  if (k > n) throw new Error(`pass@${k} needs at least ${k} trials, the task has ${n}`);
  if (n - c < k) return 1;
  let none = 1;
  for (let i = n - c + 1; i <= n; i++) none *= 1 - k / i;
  return 1 - none;
}

interface TaskTrials {
  task: string;
  trials: number;
  successes: number;
}

function trialsPerTask(group: readonly Instance[]): TaskTrials[] {
  const byTask = new Map<string, TaskTrials>();
  for (const i of group) {
    const t = byTask.get(i.task) ?? { task: i.task, trials: 0, successes: 0 };
    t.trials += 1;
    if (i.success) t.successes += 1;
    byTask.set(i.task, t);
  }
  return [...byTask.values()].sort((a, b) => a.task.localeCompare(b.task));
}

/**
 * Per (agent, language) with more than one trial of some task: pass@k for k = 1 up to the most
 * trials of a task, averaged over the tasks with at least k trials (`tasks`).
 */
export function passAtKRows(instances: readonly Instance[]): PassAtKRow[] {
  const rows: PassAtKRow[] = [];
  for (const agent of agentsOf(instances)) {
    const own = instances.filter((i) => i.agent === agent);
    for (const language of languagesOf(own)) {
      const tasks = trialsPerTask(own.filter((i) => i.language === language));
      const most = Math.max(0, ...tasks.map((t) => t.trials));
      if (most < 2) continue;
      for (let k = 1; k <= most; k++) {
        const eligible = tasks.filter((t) => t.trials >= k);
        const value = eligible.reduce((sum, t) => sum + passAtK(t.trials, t.successes, k), 0) / eligible.length;
        rows.push({ agent, language, k, tasks: eligible.length, value });
      }
    }
  }
  return rows;
}

/** The tasks whose trials disagree on success: some succeeded, some did not. */
export function flakyTasks(instances: readonly Instance[]): FlakyTask[] {
  return agentsOf(instances).flatMap((agent) => {
    const own = instances.filter((i) => i.agent === agent);
    return languagesOf(own).flatMap((language) =>
      trialsPerTask(own.filter((i) => i.language === language))
        .filter((t) => t.successes > 0 && t.successes < t.trials)
        .map((t) => ({ agent, language, task: t.task, trials: t.trials, successes: t.successes })),
    );
  });
}
