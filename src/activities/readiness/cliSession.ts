import type Docker from 'dockerode';
import type { BlobStore } from '../../db/blobs';
import { isPresetSpec, type CliSpec, type PresetSpec } from '../../domain/agentSpec';
import { kindOf } from '../../agents/registry';
import { packageAllowList } from '../../agents/confined/packageHosts';
import { relayDirOf } from '../../agents/confined/presetAgent';
import { presetOf, type PresetCallResult } from '../../agents/confined/presetCall';
import { AgentInputError, ModelEndpointError, withActivityFailures } from '../../agents/types';
import type { Settings } from '../../infra/settings';
import type { LimitClass, SandboxRecord } from '../../domain/sandboxRecord';
import { excerpt } from '../../text/excerpt';
import { withHeartbeat } from '../heartbeat';
import { shell } from './containers';
import { recordWithHits, sandboxDeps, withAttached, withLimit } from './sandboxes';
import type { StepResult } from '../../readiness/session';

export type CliSessionResult = StepResult & {
  tokensIn: number | null;
  tokensOut: number | null;
  costUsd: number | null;
  sandbox?: SandboxRecord;
  /** A preset's final message (its answer in README's agent mode), where it printed one apart from its log. */
  finalTextHash?: string | null;
  /** The agent's own failure in words (a preset's attribution), where it failed. */
  failure?: string | null;
  agentVersion?: string | null;
};

/** A preset's run as the session's one step; the endpoint's fault is the harness's error, never the agent's. */
async function presetStepOf(spec: PresetSpec, r: PresetCallResult, outputHash: string, sandbox: SandboxRecord, finalTextHash: string | null): Promise<CliSessionResult> {
  if (r.attribution.kind === 'endpoint') throw new ModelEndpointError(r.attribution.fault, r.attribution.message);
  return {
    index: 0,
    kind: 'command',
    command: `${spec.kind} (${r.version ?? presetOf(spec).install.version})`,
    exitCode: r.exitCode,
    timedOut: r.timedOut,
    durationMs: r.durationMs,
    outputHash,
    excerpt: excerpt(r.output, 1000),
    attempt: 1,
    limit: null,
    sandbox,
    ...r.usage,
    finalTextHash,
    failure: r.attribution.kind === 'agent' ? r.attribution.message : null,
    agentVersion: r.version,
  };
}

/** Where a cli agent finds its prompt inside the container. */
export const CONTAINER_PROMPT_FILE = '/opt/envgap/prompt.md';

/**
 * A `cli` agent's whole session inside the container: its command (`{prompt_file}`, `{workspace}` =
 * /repo, `{prompt}`) by docker exec, with the variables its spec names taken from this worker's
 * environment (never from the workflow's input or history), under the wall budget. Its output is a
 * blob with every known secret redacted; tokens and cost are read from it as for the gap protocol.
 */
export function createCliSessionActivities({ docker, blobs, settings, log }: { docker: Docker; blobs: BlobStore; settings: Settings; log?: (line: string) => void }) {
  const deps = sandboxDeps({ docker, settings, log });
  return {
    /** The prompt is `prompt`, or the blob `promptHash` with `prompt` after it (a long prompt stays out of the history). */
    async runCliAgent(input: { container: string; agent: CliSpec | PresetSpec; prompt: string; promptHash?: string; timeoutS: number }): Promise<CliSessionResult> {
      const session = kindOf(input.agent).protocols.readiness;
      return withHeartbeat(() =>
        withActivityFailures(() =>
          withAttached(deps, input.container, async (sandbox) => {
            const prompt = input.promptHash ? (await blobs.getText(input.promptHash)) + input.prompt : input.prompt;
            if (isPresetSpec(input.agent) && session?.run) {
              const r = await session.run(input.agent, { hostEnv: process.env, sandbox, relayDir: relayDirOf(settings, input.container), packages: packageAllowList(settings), workspace: '/repo', prompt, session: null, timeoutS: input.timeoutS });
              return presetStepOf(input.agent, r, await blobs.put(r.output), await recordWithHits(sandbox), r.finalText === null ? null : await blobs.put(r.finalText));
            }
            if (input.agent.kind !== 'cli' || !session?.command) throw new AgentInputError(`a ${input.agent.kind} agent has no session in the repository's container`);
            await sandbox.put('/opt/envgap', { 'prompt.md': prompt });
            let limit: LimitClass | null = null;
            // The agent's run through the sandbox's exec: a limit it reached is said at the end of its output.
            const r = await session.command(input.agent, process.env, { promptFile: CONTAINER_PROMPT_FILE, workspace: '/repo', prompt }, async (command, env) => {
              const run = await shell(sandbox, command, input.timeoutS, env);
              const seen = await withLimit(sandbox, run, "the agent's command");
              limit = seen.limit;
              return { output: seen.output, exitCode: run.exitCode, timedOut: run.timedOut, durationMs: run.durationMs };
            });
            return {
              index: 0,
              kind: 'command',
              command: excerpt((input.agent as CliSpec).command, 500),
              exitCode: r.exitCode,
              timedOut: r.timedOut,
              durationMs: r.durationMs,
              outputHash: await blobs.put(r.output),
              excerpt: excerpt(r.output, 1000),
              attempt: 1,
              limit,
              sandbox: await recordWithHits(sandbox),
              ...r.usage,
            };
          }),
        ),
      );
    },
  };
}
