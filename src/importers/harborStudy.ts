import * as path from 'node:path';
import { SANDBOX_LIMIT_BOUNDS } from '../domain/sandboxLimits';
import { oracleSession, trialSession, type WorkspaceFile } from './harborSession';
import type { ImportedTask, RepoPiece, StudyRepo } from './harborTaskRepo';
import { rewardPassed, type HarborTrial } from './harborTrial';
import type { SessionLine, TrajectoryReplay } from './harborTrajectory';

/** A trial folder as the importer read it (harborFiles.ts). */
export interface HarborTrialInput {
  dir: string;
  /** The job folder's name, where the trial is in one. */
  job: string | null;
  trial: HarborTrial;
  replay: TrajectoryReplay | null;
  /** Why the trajectory is not replayed (none, unreadable). */
  trajectoryProblem: string | null;
  /** The final workspace, where artifacts/ holds the working directory. */
  workspace: WorkspaceFile[] | null;
}

export interface HarborInputs {
  tasks: ImportedTask[];
  trials: HarborTrialInput[];
  /** solution/ of each task folder. */
  solutions: ReadonlyMap<string, WorkspaceFile[]>;
  /** A task's repository content of a file (null: none; undefined: cannot tell), by task folder. */
  originals: ReadonlyMap<string, (rel: string) => string | null | undefined>;
  /** Folders and files that could not be read, and why. */
  problems: string[];
}

export interface HarborStudyOptions {
  name?: string;
  /** Replay each task's solution/solve.sh as an agent `oracle` (the default where no trial is imported). */
  oracle?: boolean;
  /** The recordings' folder, relative to the study file: sessions/<agent>/<repo>/<trial>/, repos/<id>/. */
  recordings: string;
  /** A path as the study file names it (relative to its folder). */
  rel(abs: string): string;
}

/** The readiness study file (src/cli/readinessStudyFile.ts) the import writes. */
export interface HarborStudyFile {
  name: string;
  protocol: 'readiness';
  agents: { kind: 'replay'; name: string; path: string }[];
  repos: StudyRepo[];
  trials: number;
  concurrency: number;
  gpu: 'auto';
  budget: { wall_s: number; steps: number };
  limits?: { memory_mb?: number; cpus?: number; disk_mb?: number };
}

export interface ImportedSession {
  agent: string;
  repo: string;
  trial: number;
  lines: SessionLine[];
  /** What Harbor recorded of the trial, kept beside the session (harbor-trial.json). */
  harbor: Record<string, unknown>;
}

export interface HarborStudyImport {
  study: HarborStudyFile;
  sessions: ImportedSession[];
  /** Repositories assembled from the pieces a Dockerfile copies (into <recordings>/repos/<id>/). */
  assemble: { id: string; pieces: RepoPiece[] }[];
  /** Scripts folders (<recordings>/scripts/<id>/): the task's tests/ beside verify.sh. */
  scripts: { id: string; tests: string }[];
  /** What was converted, for the file's header. */
  notes: string[];
  /** What was not, and why. */
  unconverted: string[];
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const clean = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 64) || 'harbor';

/** The replay agent a trial becomes: Harbor's agent name, with the model where one agent ran with several. */
export function agentNames(trials: readonly HarborTrialInput[]): (t: HarborTrial) => string {
  const models = new Map<string, Set<string>>();
  for (const { trial } of trials) models.set(trial.agent, (models.get(trial.agent) ?? new Set()).add(trial.model ?? ''));
  return (t) => clean((models.get(t.agent)?.size ?? 0) > 1 && t.model ? `${t.agent}_${t.model.split('/').pop()}` : t.agent);
}

/** The task a trial ran: by its recorded name ([task].name or the folder's), else by its recorded path's last folder. */
export function harborTrialTask(tasks: readonly ImportedTask[], t: HarborTrial): ImportedTask | undefined {
  const base = t.taskPath ? path.posix.basename(t.taskPath.replace(/\\/g, '/').replace(/\/+$/, '')) : null;
  return tasks.find((k) => k.name === t.taskName || path.basename(k.folder) === t.taskName) ?? (base ? tasks.find((k) => path.basename(k.folder) === base) : undefined);
}

/** Harbor's own record of a trial, kept beside its session for comparison with what envgap measures. */
function harborRecord(input: HarborTrialInput, replay: TrajectoryReplay | null, session: { workspaceWrites: number; workspaceLeftOut: string[] }): Record<string, unknown> {
  const t = input.trial;
  return {
    job: input.job,
    trial_name: t.trialName,
    task_name: t.taskName,
    agent: t.agent,
    agent_version: t.agentVersion,
    model: t.model,
    rewards: t.rewards,
    passed: rewardPassed(t.rewards),
    exception: t.exception,
    started_at: t.startedAt,
    agent_seconds: t.agentSeconds,
    tokens: { input: t.tokens.input, output: t.tokens.output, cost_usd: t.tokens.costUsd },
    replay: replay ? { commands: replay.commands, writes: replay.writes, edits: replay.edits, skipped: replay.skipped, subagents: replay.subagents } : null,
    workspace: { written: session.workspaceWrites, left_out: session.workspaceLeftOut },
  };
}

function maxOf(values: (number | null)[]): number | null {
  const v = values.filter((x): x is number => x !== null);
  return v.length > 0 ? Math.max(...v) : null;
}

const clamp = (n: number, b: { min: number; max: number }) => Math.min(b.max, Math.max(b.min, n));

/**
 * Harbor tasks and trials as a readiness study: each task a repository (harborTaskRepo.ts), each
 * Harbor agent a replay agent whose recorded sessions are its trials (the trajectory replayed, the
 * final workspace written, the report inferred), numbered per agent and task in the order they
 * started; the task's solution as an `oracle` agent where asked (or where no trial is imported).
 */
export function harborStudy(inputs: HarborInputs, opts: HarborStudyOptions): HarborStudyImport {
  const unconverted = [...inputs.problems];
  const notes: string[] = [];
  const tasks: ImportedTask[] = [];
  const ids = new Set<string>();
  for (const t of inputs.tasks) {
    for (const u of t.unconverted) unconverted.push(`task ${t.name}: ${u}`);
    if (!t.repo || !t.source) continue;
    let id = t.repo.id;
    for (let n = 2; ids.has(id); n++) id = `${t.repo.id}-${n}`;
    ids.add(id);
    tasks.push({ ...t, id, repo: { ...t.repo, id } });
  }

  const nameOf = agentNames(inputs.trials);
  const sessions: ImportedSession[] = [];
  const counts = new Map<string, number>();
  const ordered = [...inputs.trials].sort((a, b) => (a.trial.startedAt ?? '').localeCompare(b.trial.startedAt ?? '') || a.trial.trialName.localeCompare(b.trial.trialName));
  for (const input of ordered) {
    const t = input.trial;
    const where = `trial ${input.job ? `${input.job}/` : ''}${path.basename(input.dir)}`;
    const task = harborTrialTask(tasks, t);
    if (!task) {
      const known = inputs.tasks.find((k) => k.name === t.taskName || path.basename(k.folder) === t.taskName);
      unconverted.push(`${where}: ${known ? `its task ${t.taskName} is not converted (above)` : `its task ${t.taskName}${t.taskPath ? ` (${t.taskPath})` : t.taskGit ? ` (${t.taskGit.url})` : ''} is not among the inputs: give its folder with --tasks`}`);
      continue;
    }
    if (!input.replay && !input.workspace) {
      unconverted.push(`${where}: nothing to replay (${input.trajectoryProblem ?? 'no agent/trajectory.json'}, and no final workspace under artifacts/)`);
      continue;
    }
    if (!input.replay) unconverted.push(`${where}: ${input.trajectoryProblem ?? 'no agent/trajectory.json'}: only its final workspace is replayed (no command: what it installed is not)`);
    if (input.replay && input.replay.subagents > 0) unconverted.push(`${where}: ${input.replay.subagents} sub-agent trajectories are not replayed`);
    const agent = nameOf(t);
    const key = `${agent}\n${task.id}`;
    const trial = (counts.get(key) ?? 0) + 1;
    counts.set(key, trial);
    const session = trialSession(task.workdir, input.replay, input.workspace, inputs.originals.get(task.folder) ?? (() => undefined));
    sessions.push({ agent, repo: task.id, trial, lines: session.lines, harbor: harborRecord(input, input.replay, session) });
  }

  const oracle = opts.oracle ?? inputs.trials.length === 0;
  // Harbor's own oracle agent may be among the trials: the solution's sessions are then `solution`.
  const oracleName = sessions.some((s) => s.agent === 'oracle') ? 'solution' : 'oracle';
  if (oracle) {
    for (const task of tasks) {
      const solution = inputs.solutions.get(task.folder);
      if (!solution?.some((f) => f.rel === 'solve.sh' && f.content !== null)) {
        unconverted.push(`task ${task.name}: no solution/solve.sh, so no oracle session`);
        continue;
      }
      for (const f of solution) if (f.content === null) unconverted.push(`task ${task.name}: solution/${f.rel} left out (${f.why ?? 'not text'})`);
      sessions.push({ agent: oracleName, repo: task.id, trial: 1, lines: oracleSession(task.workdir, solution), harbor: { agent: 'oracle', task_name: task.name, solution: true } });
    }
  }

  const agents = [...new Set(sessions.map((s) => s.agent))].sort();
  const trials = Math.max(1, ...sessions.map((s) => s.trial));
  const missing: string[] = [];
  for (const agent of agents)
    for (const task of tasks)
      for (let n = 1; n <= trials; n++) if (!sessions.some((s) => s.agent === agent && s.repo === task.id && s.trial === n)) missing.push(`${agent} × ${task.id} trial ${n}`);
  if (missing.length > 0) unconverted.push(`no recorded session (these instances end as errors: "replay: no recorded session"): ${missing.join(', ')}`);

  const name = opts.name ?? (new Set(inputs.trials.map((t) => t.job)).size === 1 && inputs.trials[0]?.job ? clean(inputs.trials[0].job) : 'harbor');
  if (!NAME.test(name) || name.length > 64) throw new Error(`the study name "${name}" must be letters, digits, ".", "_" or "-" (at most 64): give --name`);
  const rec = opts.recordings.replace(/\/+$/, '');
  const repos: StudyRepo[] = tasks.map((t) => ({
    id: t.id,
    source: t.source!.kind === 'git' ? { git: t.source!.url, commit: t.source!.commit } : { path: t.source!.kind === 'folder' ? opts.rel(t.source!.path) : `${rec}/repos/${t.id}` },
    supports: t.repo!.supports,
    entry: t.repo!.entry,
    stage_timeout_s: t.repo!.stage_timeout_s,
    ...(t.verifierTests ? { scripts: `${rec}/scripts/${t.id}` } : t.repo!.scripts ? { scripts: t.repo!.scripts } : {}),
    ...(t.repo!.prepare ? { prepare: t.repo!.prepare } : {}),
  }));
  const assemble = tasks.flatMap((t) => (t.source!.kind === 'pieces' ? [{ id: t.id, pieces: t.source!.pieces }] : []));
  const scripts = tasks.flatMap((t) => (t.verifierTests ? [{ id: t.id, tests: t.verifierTests }] : []));

  // Harbor's limits as the tasks give them (the most any asks); the agent's time doubled, since a replay installs again.
  const agentTimeout = maxOf(tasks.map((t) => t.config.agentTimeoutS));
  const memory = maxOf(tasks.map((t) => t.config.memoryMb));
  const cpus = maxOf(tasks.map((t) => t.config.cpus));
  const disk = maxOf(tasks.map((t) => t.config.storageMb));
  const limits = {
    ...(memory !== null ? { memory_mb: clamp(memory, SANDBOX_LIMIT_BOUNDS.memory_mb) } : {}),
    ...(cpus !== null ? { cpus: clamp(cpus, SANDBOX_LIMIT_BOUNDS.cpus) } : {}),
    ...(disk !== null ? { disk_mb: clamp(disk, SANDBOX_LIMIT_BOUNDS.disk_mb) } : {}),
  };
  const study: HarborStudyFile = {
    name,
    protocol: 'readiness',
    agents: agents.map((a) => ({ kind: 'replay', name: a, path: `${rec}/sessions/${a}` })),
    repos,
    trials,
    concurrency: 2,
    gpu: 'auto',
    budget: { wall_s: Math.min(7 * 86_400, Math.max(3600, Math.ceil((agentTimeout ?? 0) * 2))), steps: Math.min(100_000, Math.max(500, ...sessions.map((s) => s.lines.length))) },
    ...(Object.keys(limits).length > 0 ? { limits } : {}),
  };

  const passed = sessions.filter((s) => s.harbor.passed === true).length;
  const failed = sessions.filter((s) => s.harbor.passed === false).length;
  notes.push(`${repos.length} of ${inputs.tasks.length} tasks as repositories; ${sessions.length} sessions of ${agents.length} agents (${agents.join(', ') || 'none'})`);
  if (inputs.trials.length > 0) notes.push(`of the ${inputs.trials.length} trials, ${sessions.filter((s) => s.harbor.solution !== true).length} replayed; Harbor's verifier passed ${passed}, failed ${failed}, gave no reward to ${sessions.filter((s) => s.harbor.solution !== true).length - passed - failed} (harbor-trial.json beside each session)`);
  return { study, sessions, assemble, scripts, notes, unconverted };
}
