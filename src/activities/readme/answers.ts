import { ApplicationFailure, Context } from '@temporalio/activity';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { postChatCompletion } from '../../agents/chatRequest';
import { parseCliUsage } from '../../agents/cliUsage';
import { runShell } from '../../agents/runShell';
import { knownSecrets, redactSecrets } from '../../agents/secrets';
import { shellQuote } from '../../agents/shellQuote';
import type { BlobStore } from '../../db/blobs';
import type { CliSpec, OpenAISpec } from '../../domain/agentSpec';
import type { AnswerOutcome, GoldAnswer, ReadmeAnswer } from '../../domain/readme';
import type { ReadmeInstanceSpec } from '../../domain/readmeStudy';
import { parseReadmeAnswer } from '../../readme/answer';
import { readEncondaPredictions, type EncondaPrediction } from '../../readme/enconda';
import { README_SYSTEM_PROMPT } from '../../readme/prompt';
import { withHeartbeat } from '../heartbeat';

interface Spent {
  durationMs: number | null;
  tokensIn?: number | null;
  tokensOut?: number | null;
  costUsd?: number | null;
}

/** An answer that parsed (or the reason it did not), with its text and script as blobs. */
async function fromText(blobs: BlobStore, text: string, spent: Spent): Promise<AnswerOutcome> {
  const parsed = parseReadmeAnswer(text);
  const base = { answer_hash: await blobs.put(text), duration_s: spent.durationMs === null ? null : spent.durationMs / 1000, tokens_in: spent.tokensIn ?? null, tokens_out: spent.tokensOut ?? null, cost_usd: spent.costUsd ?? null };
  if (!parsed.ok) return { status: 'invalid_answer', problem: parsed.problem, detected_errors: [], setup_script_hash: null, ...base };
  return fromAnswer(blobs, parsed.answer, base);
}

async function fromAnswer(blobs: BlobStore, answer: ReadmeAnswer, base: Omit<AnswerOutcome, 'status' | 'problem' | 'detected_errors' | 'setup_script_hash'>): Promise<AnswerOutcome> {
  return { status: 'answered', problem: null, detected_errors: answer.detected_errors, setup_script_hash: answer.setup_script === null ? null : await blobs.put(answer.setup_script), ...base };
}

const noAnswer = (status: 'failed' | 'timeout', problem: string, spent: Spent, answerHash: string | null = null): AnswerOutcome => ({
  status,
  problem,
  detected_errors: [],
  setup_script_hash: null,
  answer_hash: answerHash,
  duration_s: spent.durationMs === null ? null : spent.durationMs / 1000,
  tokens_in: spent.tokensIn ?? null,
  tokens_out: spent.tokensOut ?? null,
  cost_usd: spent.costUsd ?? null,
});

/** Recorded answers are read once per folder and worker: a recording does not change during a study. */
const recordings = new Map<string, Map<string, EncondaPrediction>>();

export function createReadmeAnswerActivities({ blobs }: { blobs: BlobStore }) {
  return {
    /** The gold errors, with their golden answers as fixes; no setup script. */
    async oracleAnswer(input: { goldHash: string }): Promise<AnswerOutcome> {
      const gold = await blobs.getJson<GoldAnswer>(input.goldHash);
      const answer: ReadmeAnswer = { detected_errors: gold.errors.map((e) => ({ error_type: e.error_type, error_description: e.error_description, fix_suggestion: e.golden_answer })), setup_script: null };
      return fromAnswer(blobs, answer, { answer_hash: await blobs.putJson(answer), duration_s: 0, tokens_in: null, tokens_out: null, cost_usd: null });
    },

    /** A recorded answer in EnConda's output layout; none recorded for this README is the agent's failure (it answered nothing). */
    async replayAnswer(input: { path: string; instance: ReadmeInstanceSpec }): Promise<AnswerOutcome> {
      let all = recordings.get(input.path);
      if (!all) {
        try {
          all = readEncondaPredictions(input.path);
        } catch (err) {
          throw ApplicationFailure.nonRetryable(`replay agent: ${(err as Error).message}`, 'AgentInputError');
        }
        recordings.set(input.path, all);
      }
      const p = all.get(input.instance.name);
      if (!p) return noAnswer('failed', `no recorded answer for ${input.instance.name} in ${input.path}`, { durationMs: null });
      return fromAnswer(blobs, { detected_errors: p.detected_errors, setup_script: p.setup_script }, { answer_hash: await blobs.putJson(p), duration_s: null, tokens_in: null, tokens_out: null, cost_usd: null });
    },

    /** One chat completion: upstream's system message and prompt; the reply is the answer. */
    async openaiAnswer(input: { agent: OpenAISpec; promptHash: string }): Promise<AnswerOutcome> {
      const prompt = await blobs.getText(input.promptHash);
      return withHeartbeat(async () => {
        const started = Date.now();
        const { message, tokensIn, tokensOut } = await postChatCompletion(input.agent, { messages: [{ role: 'system', content: README_SYSTEM_PROMPT }, { role: 'user', content: prompt }] });
        const spent = { durationMs: Date.now() - started, tokensIn, tokensOut };
        const text = redactSecrets(message.content ?? '', knownSecrets(input.agent, process.env));
        if (!text.trim()) return noAnswer('failed', 'the model returned an empty message', spent);
        return fromText(blobs, text, spent);
      });
    },

    /**
     * A `cli` agent's one call on this worker, in a fresh folder holding the prompt
     * ({prompt_file}, {workspace}, {prompt}): its answer is `answer.md` there if it wrote one, else
     * its standard output. Only PATH, HOME and the variables its spec names reach it.
     */
    async cliAnswer(input: { agent: CliSpec; promptHash: string; timeoutS: number }): Promise<AnswerOutcome> {
      const prompt = await blobs.getText(input.promptHash);
      const workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'envgap-readme-'));
      try {
        const promptFile = path.join(workspace, 'prompt.md');
        await fs.writeFile(promptFile, prompt);
        const values: Record<string, string> = { prompt_file: promptFile, workspace, prompt: shellQuote(prompt) };
        const command = input.agent.command.replace(/\{(prompt_file|workspace|prompt)\}/g, (_, name: string) => values[name]!);
        const env: Record<string, string> = {};
        for (const name of ['PATH', 'HOME', ...input.agent.env]) if (process.env[name] !== undefined) env[name] = process.env[name]!;
        const missing = input.agent.env.filter((n) => process.env[n] === undefined);
        if (missing.length > 0) throw ApplicationFailure.nonRetryable(`cli agent "${input.agent.name}": ${missing.join(', ')} not set in the worker's environment`, 'AgentInputError');
        const timeoutS = Math.min(input.timeoutS, input.agent.timeout_s);
        return await withHeartbeat(async () => {
          const started = Date.now();
          const r = await runShell(command, { cwd: workspace, env, timeoutMs: timeoutS * 1000, signal: Context.current().cancellationSignal, outputTailChars: 200_000, stdoutTailChars: 200_000 });
          const secrets = knownSecrets(input.agent, process.env);
          const stdout = redactSecrets(r.stdout, secrets);
          const spent = { durationMs: Date.now() - started, ...parseCliUsage(stdout) };
          const log = await blobs.put(redactSecrets(r.output, secrets));
          if (r.timedOut) return noAnswer('timeout', `stopped at the agent's time limit of ${timeoutS} s`, spent, log);
          if (r.exitCode !== 0) return noAnswer('failed', `the agent's command exited ${r.exitCode ?? `on ${r.signal}`}`, spent, log);
          const file = await fs.readFile(path.join(workspace, 'answer.md'), 'utf8').catch(() => null);
          return fromText(blobs, file === null ? stdout : redactSecrets(file, secrets), spent);
        });
      } finally {
        await fs.rm(workspace, { recursive: true, force: true });
      }
    },

    /** An in-container agent's output (a blob, secrets already redacted) read as its answer. */
    async answerFromOutput(input: { outputHash: string; exitCode: number | null; timedOut: boolean; durationMs: number; tokensIn: number | null; tokensOut: number | null; costUsd: number | null; timeoutS: number }): Promise<AnswerOutcome> {
      const spent = { durationMs: input.durationMs, tokensIn: input.tokensIn, tokensOut: input.tokensOut, costUsd: input.costUsd };
      if (input.timedOut) return noAnswer('timeout', `stopped at the agent's time limit of ${input.timeoutS} s`, spent, input.outputHash);
      if (input.exitCode !== 0) return noAnswer('failed', `the agent's command exited ${input.exitCode}`, spent, input.outputHash);
      return fromText(blobs, await blobs.getText(input.outputHash), spent);
    },
  };
}
