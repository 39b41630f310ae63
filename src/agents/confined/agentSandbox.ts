import { Context } from '@temporalio/activity';
import type Docker from 'dockerode';
import type { Language } from '../../domain/instance';
import { DEFAULT_SANDBOX_LIMITS } from '../../domain/sandboxLimits';
import { ensureRuntimeImage } from '../../infra/images';
import { CA_ENV } from '../../infra/recipes';
import type { Settings } from '../../infra/settings';
import { removeEarlierAttempts, Sandbox, SANDBOX_LABELS, sandboxIdentity, type NetworkChoice, type SandboxOwner } from '../../sandbox';

/** What confining an agent needs of the worker: Docker, the settings, a log. */
export interface Confinement {
  docker: Docker;
  settings: Settings;
  log?: (line: string) => void;
}

/** Where the project is, in a gap protocol agent's sandbox. */
export const AGENT_WORKSPACE = '/work';

export interface AgentSandboxRequest {
  instanceId: string;
  iteration: number;
  language: Language;
  /** The sandbox's name is known before it opens (a preset's relay folder is named after it). */
  binds?: (sandboxName: string) => Promise<string[]>;
  /** Default the sandbox network; `none` for an agent whose ways out are envgap's relays (a preset). */
  network?: NetworkChoice;
  /** Another image than the language's runtime image (a cli agent's `install` on top of it). */
  image?: (runtime: string) => Promise<string>;
  signal?: AbortSignal;
}

/**
 * A gap protocol agent's call in a sandbox of its own: the language's runtime image (the agent may try
 * its project as on a machine of its own), the sandbox network, the default limits, no shared cache,
 * /work as the workspace; named after the instance, iteration and activity attempt (an earlier
 * attempt's is removed first); closed whatever `work` does.
 */
export async function withAgentSandbox<T extends { durationMs: number; agentMs?: number }>(c: Confinement, req: AgentSandboxRequest, work: (sandbox: Sandbox) => Promise<T>): Promise<T & { overheadMs: number }> {
  const owner: SandboxOwner = { instanceId: req.instanceId, protocol: 'envgap', role: `agent-i${req.iteration}`, attempt: currentAttempt() };
  const identity = sandboxIdentity(owner, { [SANDBOX_LABELS.iteration]: String(req.iteration) });
  await removeEarlierAttempts(c.docker, { [SANDBOX_LABELS.instance]: owner.instanceId, [SANDBOX_LABELS.role]: owner.role }, owner.attempt);
  // An image built now is the machine's first use, not a call's overhead.
  const runtime = await ensureRuntimeImage(c.docker, c.settings, req.language, (line) => c.log?.(`[image ${req.language}] ${line}`));
  const image = req.image ? await req.image(runtime) : runtime;
  const binds = req.binds ? await req.binds(identity.name) : [];
  const started = Date.now();
  const sandbox = await Sandbox.open(
    { docker: c.docker, settings: c.settings, log: c.log },
    { image, ...identity, limits: DEFAULT_SANDBOX_LIMITS, network: req.network ?? 'sandbox', caches: { binds: [], mode: 'none' }, env: CA_ENV, binds, workdir: AGENT_WORKSPACE, onDiskFull: 'refuse', signal: req.signal },
  );
  let answer: T;
  try {
    // The agent's processes die with this worker: a SIGKILLed worker leaves none running.
    await sandbox.dieWithThisProcess();
    answer = await work(sandbox);
  } finally {
    await sandbox.close();
  }
  // What envgap added to the agent's own time: the sandbox up and down, files in and out, the session kept.
  return { ...answer, overheadMs: Math.max(0, Date.now() - started - (answer.agentMs ?? answer.durationMs)) };
}

function currentAttempt(): number {
  try {
    return Context.current().info.attempt;
  } catch {
    return 1;
  }
}
