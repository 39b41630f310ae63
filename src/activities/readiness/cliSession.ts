import { ApplicationFailure } from '@temporalio/activity';
import type Docker from 'dockerode';
import { createHash } from 'node:crypto';
import type { BlobStore } from '../../db/blobs';
import type { CliSpec } from '../../domain/agentSpec';
import { parseCliUsage } from '../../agents/cliUsage';
import { knownSecrets, redactSecrets } from '../../agents/secrets';
import { shellQuote } from '../../agents/shellQuote';
import { imageExists, putFiles } from '../../infra/docker';
import { buildFromFiles } from '../../infra/images';
import { excerpt } from '../../text/excerpt';
import { withHeartbeat } from '../heartbeat';
import { isRunning, shell } from './containers';
import type { StepResult } from './session';

/** Where a cli agent finds its prompt inside the container. */
export const CONTAINER_PROMPT_FILE = '/opt/envgap/prompt.md';

/** The readiness image with the agent installed: one image per (readiness image, install command). */
export function agentImageTag(baseImage: string, install: string): string {
  return `envgap/readiness-agent:${createHash('sha256').update(`${baseImage}\0${install}`).digest('hex').slice(0, 12)}`;
}

/** Builds the agent's image once: the readiness image plus the spec's install command (with the package indexes). */
export async function ensureAgentImage(docker: Docker, baseImage: string, install: string, log?: (line: string) => void): Promise<string> {
  const tag = agentImageTag(baseImage, install);
  if (await imageExists(docker, tag)) return tag;
  log?.(`building ${tag}: ${install}`);
  // As a script, so that a command of several lines (a heredoc) runs as written.
  const dockerfile = `FROM ${baseImage}\nCOPY install.sh /tmp/envgap-install.sh\nRUN bash -e /tmp/envgap-install.sh && rm /tmp/envgap-install.sh\n`;
  try {
    await buildFromFiles(docker, tag, { Dockerfile: dockerfile, 'install.sh': install }, { 'envgap.image': 'readiness-agent' }, (line) => log?.(line));
  } catch (err) {
    throw new Error(`the agent's install command failed: ${(err as Error).message}`);
  }
  return tag;
}

/**
 * A `cli` agent's whole session inside the container: its command (`{prompt_file}`, `{workspace}` =
 * /repo, `{prompt}`) by docker exec, with the variables its spec names taken from this worker's
 * environment (never from the workflow's input or history), under the wall budget. Its output is a
 * blob with every known secret redacted; tokens and cost are read from it as for the gap protocol.
 */
export function createCliSessionActivities({ docker, blobs }: { docker: Docker; blobs: BlobStore }) {
  return {
    /** The prompt is `prompt`, or the blob `promptHash` with `prompt` after it (a long prompt stays out of the history). */
    async runCliAgent(input: { container: string; agent: CliSpec; prompt: string; promptHash?: string; timeoutS: number }): Promise<StepResult & { tokensIn: number | null; tokensOut: number | null; costUsd: number | null }> {
      if (!(await isRunning(docker, input.container))) throw new Error(`the session's container ${input.container} is gone`);
      const container = docker.getContainer(input.container);
      return withHeartbeat(async () => {
        const prompt = input.promptHash ? (await blobs.getText(input.promptHash)) + input.prompt : input.prompt;
        await putFiles(container, '/opt/envgap', { 'prompt.md': prompt });
        const values: Record<string, string> = { prompt_file: CONTAINER_PROMPT_FILE, workspace: '/repo', prompt: shellQuote(prompt) };
        const command = input.agent.command.replace(/\{(prompt_file|workspace|prompt)\}/g, (_, name: string) => values[name]!);
        const missing = input.agent.env.filter((name) => process.env[name] === undefined);
        if (missing.length > 0) throw ApplicationFailure.nonRetryable(`cli agent "${input.agent.name}": ${missing.join(', ')} not set in the worker's environment`, 'AgentInputError');
        const env = input.agent.env.map((name) => `${name}=${process.env[name]}`);
        const r = await shell(container, command, input.timeoutS, env);
        const output = redactSecrets(r.output, knownSecrets(input.agent, process.env));
        const usage = parseCliUsage(output);
        return {
          index: 0,
          kind: 'command',
          command: excerpt(input.agent.command, 500),
          exitCode: r.exitCode,
          timedOut: r.timedOut,
          durationMs: r.durationMs,
          outputHash: await blobs.put(output),
          excerpt: excerpt(output, 1000),
          attempt: 1,
          ...usage,
        };
      });
    },
  };
}
