import type Docker from 'dockerode';
import type { BlobStore } from '../../db/blobs';
import type { CliSpec } from '../../domain/agentSpec';
import { kindOf } from '../../agents/registry';
import { AgentInputError, withActivityFailures } from '../../agents/types';
import type { Settings } from '../../infra/settings';
import type { LimitClass, SandboxRecord } from '../../domain/sandboxRecord';
import { excerpt } from '../../text/excerpt';
import { withHeartbeat } from '../heartbeat';
import { shell } from './containers';
import { recordWithHits, sandboxDeps, withAttached, withLimit } from './sandboxes';
import type { StepResult } from '../../readiness/session';

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
    async runCliAgent(input: { container: string; agent: CliSpec; prompt: string; promptHash?: string; timeoutS: number }): Promise<StepResult & { tokensIn: number | null; tokensOut: number | null; costUsd: number | null; sandbox?: SandboxRecord }> {
      const session = kindOf(input.agent).protocols.readiness;
      return withHeartbeat(() =>
        withActivityFailures(() =>
          withAttached(deps, input.container, async (sandbox) => {
            if (!session?.command) throw new AgentInputError(`a ${input.agent.kind} agent has no session in the repository's container`);
            const prompt = input.promptHash ? (await blobs.getText(input.promptHash)) + input.prompt : input.prompt;
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
              command: excerpt(input.agent.command, 500),
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
