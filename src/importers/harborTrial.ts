import { z } from 'zod';
import { describeIssues } from '../text/zodIssues';

/**
 * A Harbor trial as its folder records it (Harbor's TrialPaths): result.json (TrialResult: the task,
 * the agent, the verifier's rewards, an exception, timings, tokens), agent/ (the agent's logs, its
 * ATIF trajectory.json), verifier/ (reward.txt or reward.json, test-stdout.txt), artifacts/ (what was
 * collected from the environment, with manifest.json).
 */
const Timing = z.looseObject({ started_at: z.string().nullish(), finished_at: z.string().nullish() }).nullish();
const TrialResultJson = z.looseObject({
  task_name: z.string().min(1),
  trial_name: z.string().min(1),
  task_id: z.looseObject({ path: z.string().optional(), git_url: z.string().optional(), git_commit_id: z.string().nullish(), org: z.string().optional(), name: z.string().optional() }).optional(),
  config: z.looseObject({ task: z.looseObject({ path: z.string().nullish(), git_url: z.string().nullish(), git_commit_id: z.string().nullish() }).optional() }).optional(),
  agent_info: z.looseObject({ name: z.string().min(1), version: z.string().optional(), model_info: z.looseObject({ name: z.string(), provider: z.string().nullish() }).nullish() }),
  agent_result: z.looseObject({ n_input_tokens: z.number().nullish(), n_output_tokens: z.number().nullish(), cost_usd: z.number().nullish() }).nullish(),
  verifier_result: z.looseObject({ rewards: z.record(z.string(), z.number()).nullish() }).nullish(),
  exception_info: z.looseObject({ exception_type: z.string(), exception_message: z.string().optional() }).nullish(),
  started_at: z.string().nullish(),
  finished_at: z.string().nullish(),
  agent_execution: Timing,
});

export interface HarborTrial {
  /** The trial's folder name (Harbor's trial_name: `<task>__<id>`). */
  trialName: string;
  taskName: string;
  /** Where the trial's task was: a local path as recorded on the machine that ran it, or a git repository. */
  taskPath: string | null;
  taskGit: { url: string; commit: string | null } | null;
  agent: string;
  agentVersion: string | null;
  model: string | null;
  /** The verifier's rewards (result.json's, else verifier/reward.json's, else reward.txt's as `reward`); null: none. */
  rewards: Record<string, number> | null;
  exception: { type: string; message: string } | null;
  startedAt: string | null;
  agentSeconds: number | null;
  tokens: { input: number | null; output: number | null; costUsd: number | null };
}

/** The verifier's reward files as Harbor reads them: reward.json first (a flat object of numbers), else reward.txt's one number. */
export function readRewardFiles(json: string | null, txt: string | null, where: string): Record<string, number> | null {
  if (json !== null && json.trim()) {
    let v: unknown;
    try {
      v = JSON.parse(json);
    } catch {
      throw new Error(`${where}/reward.json: not JSON`);
    }
    if (typeof v === 'number') return { reward: v };
    if (v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'number')) return v as Record<string, number>;
    throw new Error(`${where}/reward.json: not a flat object of numbers`);
  }
  if (txt !== null && txt.trim()) {
    const n = Number(txt.trim());
    if (!Number.isFinite(n)) throw new Error(`${where}/reward.txt: not a number: ${JSON.stringify(txt.trim().slice(0, 40))}`);
    return { reward: n };
  }
  return null;
}

function seconds(t: { started_at?: string | null; finished_at?: string | null } | null | undefined): number | null {
  const a = Date.parse(t?.started_at ?? '');
  const b = Date.parse(t?.finished_at ?? '');
  return Number.isFinite(a) && Number.isFinite(b) && b >= a ? (b - a) / 1000 : null;
}

/** Parses a trial's result.json, with the rewards its verifier/ folder holds where result.json has none. */
export function parseTrialResult(text: string, file: string, fileRewards: Record<string, number> | null): HarborTrial {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${file}: not JSON`);
  }
  const parsed = TrialResultJson.safeParse(json);
  if (!parsed.success) throw new Error(`${file}: not a Harbor trial result: ${describeIssues(parsed.error).join('; ')}`);
  const r = parsed.data;
  const gitUrl = r.task_id?.git_url ?? r.config?.task?.git_url ?? null;
  return {
    trialName: r.trial_name,
    taskName: r.task_name,
    taskPath: r.task_id?.path ?? r.config?.task?.path ?? null,
    taskGit: gitUrl ? { url: gitUrl, commit: r.task_id?.git_commit_id ?? r.config?.task?.git_commit_id ?? null } : null,
    agent: r.agent_info.name,
    agentVersion: r.agent_info.version ?? null,
    model: r.agent_info.model_info?.name ?? null,
    rewards: r.verifier_result?.rewards ?? fileRewards,
    exception: r.exception_info ? { type: r.exception_info.exception_type, message: r.exception_info.exception_message ?? '' } : null,
    startedAt: r.started_at ?? null,
    agentSeconds: seconds(r.agent_execution),
    tokens: { input: r.agent_result?.n_input_tokens ?? null, output: r.agent_result?.n_output_tokens ?? null, costUsd: r.agent_result?.cost_usd ?? null },
  };
}

/** A trial passed where every reward is at least 1 (a partial reward is not a pass). */
export function rewardPassed(rewards: Record<string, number> | null): boolean | null {
  if (rewards === null) return null;
  const values = Object.values(rewards);
  return values.length > 0 && values.every((v) => v >= 1);
}
