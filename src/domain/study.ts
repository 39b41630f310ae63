import type { AgentSpec } from './agentSpec';
import type { Language } from './instance';
import type { PromptEnvironment } from './promptEnvironment';
import { DEFAULT_SANDBOX_LIMITS } from './sandboxLimits';

export interface ContainerLimits {
  memory_mb: number;
  cpus: number;
  pids: number;
  /** Disk the container may write, in MiB (enforced by the container layer). */
  disk_mb: number;
  /** /dev/shm in MiB (src/domain/sandboxLimits.ts); absent in inputs from before it: 64, Docker's default. */
  shm_mb?: number;
  install_timeout_s: number;
  run_timeout_s: number;
  /**
   * How long the program runs before the harness looks whether it is serving (a TCP socket listening in
   * the container): a program still running at run_timeout_s that was seen listening has started
   * successfully, a service (docs/ecosystems.md, "Services"). Absent in inputs from before it: 10.
   */
  service_grace_s?: number;
}

/** ContainerLimits.service_grace_s where the limits predate it. */
export const DEFAULT_SERVICE_GRACE_S = 10;

/** The sandbox's defaults (memory, CPUs, pids, disk, /dev/shm: the same in every protocol) and the gap protocol's time limits. */
export const DEFAULT_LIMITS: ContainerLimits = {
  ...DEFAULT_SANDBOX_LIMITS,
  install_timeout_s: 900,
  run_timeout_s: 120,
  service_grace_s: DEFAULT_SERVICE_GRACE_S,
};

export interface TaskRef {
  id: string;
  title: string;
  domain: string;
  /**
   * The Gen prompt of a task that is not the catalog's (the study file's `imported_tasks`: a Harbor
   * task's instruction, an Inspect sample's input); absent for the catalog's, whose prompt it gives.
   */
  prompt?: string;
}

/** The most characters of an imported task's prompt: it travels in every instance's workflow input. */
export const IMPORTED_PROMPT_CHARS = 16_384;

/** Workflow input of a study: small, fully resolved, and free of secrets. */
export interface StudyInput {
  name: string;
  agents: AgentSpec[];
  languages: Language[];
  tasks: TaskRef[];
  /** Per-language task lists, where a study gives them; a language without one uses `tasks`. */
  tasksByLanguage?: Partial<Record<Language, TaskRef[]>>;
  trials: number;
  budget: number;
  concurrency: number;
  limits: ContainerLimits;
  /** Phantom confirmation of every successful instance (the study file's `confirm_phantoms: true`); absent when not asked. */
  confirmPhantoms?: ConfirmPhantoms;
  /** The environment the prompts state (the study file's `prompt_environment`, docs/prompts.md); absent in studies started before it existed: `paper`. */
  promptEnvironment?: PromptEnvironment;
  /** Resolve installs as the registries stood on this day (YYYY-MM-DD, the study file's `resolve_as_of`, docs/resolution.md); absent: today's registries. */
  resolveAsOf?: string;
}

/** What a study asks of phantom confirmation (docs/confirmation.md): the trials one instance may run at most. */
export interface ConfirmPhantoms {
  maxTrials: number;
}

export interface InstanceInput {
  instanceId: string;
  study: string;
  agent: AgentSpec;
  language: Language;
  task: TaskRef;
  trial: number;
  budget: number;
  limits: ContainerLimits;
  /**
   * The instance workflow's revision this instance was started for (INSTANCE_REVISION); absent in
   * instances started before revisions were carried, whose workflow marks the patch they asked then
   * (`answer-with-execution`, now deprecated; src/workflows/instance.ts).
   */
  revision?: number;
  /**
   * Confirm the phantoms (and bloat) of the instance once it succeeded, by removal trials
   * (src/workflows/confirmPhantoms.ts); absent unless the study asks, so the inputs of studies that do
   * not stay as they were.
   */
  confirmPhantoms?: ConfirmPhantoms;
  /** The study's `promptEnvironment`; absent where the study has none (then the prompts are the paper's). */
  promptEnvironment?: PromptEnvironment;
  /** The study's `resolveAsOf`; absent where the study has none, so older inputs stay as they were. */
  resolveAsOf?: string;
}

/**
 * The instance workflow's revision that new instances are started for. A revision implies every
 * change before it, so the workflow asks no patch of an instance that carries one: a patch costs
 * a marker, a search attribute upsert (a visibility write) and about 3 ms of every instance.
 * Revision 1: every change up to `answer-with-execution` (src/workflows/instance.ts). A later change
 * is a patch asked of instances of an older revision, or a new revision.
 */
export const INSTANCE_REVISION = 1;

/** Every instance of a study, in a stable order (agent, language, task, trial). */
export function expandStudy(s: StudyInput): InstanceInput[] {
  const out: InstanceInput[] = [];
  for (const agent of s.agents)
    for (const language of s.languages)
      for (const task of s.tasksByLanguage?.[language] ?? s.tasks)
        for (let trial = 1; trial <= s.trials; trial++) {
          out.push({
            instanceId: `${s.name}/${agent.name}/${language}/${task.id}/${trial}`,
            study: s.name,
            agent,
            language,
            task,
            trial,
            budget: s.budget,
            limits: s.limits,
            revision: INSTANCE_REVISION,
            ...(s.confirmPhantoms ? { confirmPhantoms: s.confirmPhantoms } : {}),
            ...(s.promptEnvironment ? { promptEnvironment: s.promptEnvironment } : {}),
            ...(s.resolveAsOf ? { resolveAsOf: s.resolveAsOf } : {}),
          });
        }
  return out;
}
