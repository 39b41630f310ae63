import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import { CliSpec } from '../../domain/agentSpec';
import { CliAgent } from '../cli';
import { runCliInContainer, runCliOnHost } from '../cliRun';
import { knownSecrets, redactSecrets } from '../secrets';
import { answerCliConfined } from '../confined/cliAgentCall';
import type { AgentKind, ReadmeReply } from './types';

/** How much of a README answer's output is kept (the answer may be its standard output). */
const README_OUTPUT_CHARS = 200_000;

/**
 * `cli`: any command-line agent, given by a command template (cliRun.ts). Gen/Repair: run on this
 * worker in a workspace holding the previous files. README: one run on this worker in a folder holding
 * `prompt.md`, the answer being `answer.md` there if it wrote one, else its standard output; with
 * `in_container`, the readiness one-command session in the repository's container. Readiness: that
 * session.
 */
export const cli: AgentKind<CliSpec> = {
  kind: 'cli',
  spec: CliSpec,
  protocols: {
    gap: { create: (spec, env, options) => new CliAgent(spec, env, options) },
    readme: {
      activity: 'cliAnswer',
      spec: CliSpec.extend({ in_container: z.boolean().default(false) }),
      setupScript: true,
      async answer(spec, request): Promise<ReadmeReply> {
        const timeoutS = Math.min(request.timeoutS, spec.timeout_s);
        if (request.confinement) return answerCliConfined(spec, request.env, request.confinement, { key: request.key ?? `readme-answer/${spec.name}`, prompt: await request.prompt(), timeoutS, signal: request.signal });
        const options = { prompt: await request.prompt(), promptFile: 'prompt.md', timeoutS, unset: 'refuse' as const, outputChars: README_OUTPUT_CHARS, stdoutChars: README_OUTPUT_CHARS, signal: request.signal };
        return runCliOnHost(spec, request.env, options, async (workspace, r) => {
          const spent = { durationMs: r.durationMs, ...r.usage };
          if (r.timedOut) return { kind: 'none', status: 'timeout', problem: `stopped at the agent's time limit of ${timeoutS} s`, log: r.output, spent };
          if (r.exitCode !== 0) return { kind: 'none', status: 'failed', problem: `the agent's command exited ${r.exitCode ?? `on ${r.signal}`}`, log: r.output, spent };
          const file = await fs.readFile(path.join(workspace, 'answer.md'), 'utf8').catch(() => null);
          return { kind: 'text', text: file === null ? r.stdout : redactSecrets(file, knownSecrets(spec, request.env)), spent };
        });
      },
    },
    readiness: { session: 'one-command', command: runCliInContainer },
  },
};
