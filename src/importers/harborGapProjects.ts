import * as path from 'node:path';
import { IMPORTED_PROMPT_CHARS } from '../domain/study';
import type { ImportedProject } from './gapReplayStudy';
import { agentNames, harborTrialTask, type HarborInputs } from './harborStudy';
import type { ImportedTask } from './harborTaskRepo';
import { rewardPassed } from './harborTrial';

/** A Harbor task's id in a gap study: its name with "/" as "__" (as the export names folders), other characters as "-". */
export function harborGapTaskId(name: string): string {
  return name.replace('/', '__').replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 128) || 'task';
}

/** instruction.md as the agent got it: Harbor's leading canary lines (HTML comments naming a canary GUID) dropped. */
export function harborInstruction(text: string): string {
  const lines = text.split('\n');
  let n = 0;
  const canary = (l: string) => /^\s*(<!--.*canary.*-->|#.*canary)/i.test(l);
  while (n < lines.length && (canary(lines[n]!) || (n > 0 && lines[n]!.trim() === '' && canary(lines[n - 1]!)))) n++;
  return lines.slice(n).join('\n').trim();
}

/**
 * The trials whose final workspace was collected (artifacts/ holding the task's working directory) as
 * projects for the environment gap protocol: the workspace as the agent left it is its project, the
 * task's instruction its prompt. Trials without one, and files left out of one, are listed.
 */
export function harborGapProjects(inputs: HarborInputs, instruction: (task: ImportedTask) => string | null): { projects: ImportedProject[]; unconverted: string[] } {
  const unconverted = [...inputs.problems];
  const projects: ImportedProject[] = [];
  const nameOf = agentNames(inputs.trials);
  for (const input of inputs.trials) {
    const t = input.trial;
    const where = `trial ${input.job ? `${input.job}/` : ''}${path.basename(input.dir)}`;
    const task = harborTrialTask(inputs.tasks, t);
    if (!task) {
      unconverted.push(`${where}: its task ${t.taskName} is not among the inputs: give its folder with --tasks`);
      continue;
    }
    if (!input.workspace) {
      unconverted.push(`${where}: no final workspace (artifacts/ does not hold ${task.workdir}): the gap protocol measures a project, and a trajectory alone is replayed only by the readiness import`);
      continue;
    }
    const leftOut = input.workspace.filter((f) => f.content === null);
    if (leftOut.length > 0) unconverted.push(`${where}: ${leftOut.length} files of its workspace left out: ${leftOut.slice(0, 5).map((f) => `${f.rel} (${f.why ?? 'not text'})`).join(', ')}${leftOut.length > 5 ? ', …' : ''}`);
    let prompt = harborInstruction(instruction(task) ?? '') || `(Harbor task ${task.name}: no instruction.md)`;
    if (prompt.length > IMPORTED_PROMPT_CHARS) {
      unconverted.push(`task ${task.name}: its instruction cut to ${IMPORTED_PROMPT_CHARS} characters (of ${prompt.length}) as the prompt recorded`);
      prompt = prompt.slice(0, IMPORTED_PROMPT_CHARS);
    }
    projects.push({
      agent: nameOf(t),
      task: { id: harborGapTaskId(task.name), title: `Harbor task ${task.name}`, domain: 'harbor', prompt },
      files: input.workspace.flatMap((f) => (f.content === null ? [] : [{ rel: f.rel, content: f.content }])),
      meta: { tokens_in: t.tokens.input, tokens_out: t.tokens.output, cost_usd: t.tokens.costUsd },
      from: where,
      order: `${t.startedAt ?? ''}\n${t.trialName}`,
      record: { file: 'harbor-trial.json', data: { job: input.job, trial_name: t.trialName, task_name: t.taskName, agent: t.agent, agent_version: t.agentVersion, model: t.model, rewards: t.rewards, passed: rewardPassed(t.rewards), exception: t.exception, started_at: t.startedAt } },
    });
  }
  return { projects, unconverted: [...new Set(unconverted)] };
}
