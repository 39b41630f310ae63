import { Context } from '@temporalio/activity';
import type Docker from 'dockerode';
import type { Settings } from '../../infra/settings';
import { kindOf, type ReadmeReply, type ReadmeRequest, type Spent } from '../../agents/registry';
import { withActivityFailures } from '../../agents/types';
import type { BlobStore } from '../../db/blobs';
import type { CliSpec, OpenAISpec } from '../../domain/agentSpec';
import type { AnswerOutcome, GoldAnswer, ReadmeAnswer } from '../../domain/readme';
import type { ReadmeAgentSpec, ReadmeInstanceSpec } from '../../domain/readmeStudy';
import { parseReadmeAnswer } from '../../readme/answer';
import { withHeartbeat } from '../heartbeat';

const spentColumns = (spent: Spent) => ({ duration_s: spent.durationMs === null ? null : spent.durationMs / 1000, tokens_in: spent.tokensIn, tokens_out: spent.tokensOut, cost_usd: spent.costUsd });

/** An answer that parsed (or the reason it did not), with its text and script as blobs. */
async function fromText(blobs: BlobStore, text: string, spent: Spent): Promise<AnswerOutcome> {
  const parsed = parseReadmeAnswer(text);
  const base = { answer_hash: await blobs.put(text), ...spentColumns(spent) };
  if (!parsed.ok) return { status: 'invalid_answer', problem: parsed.problem, detected_errors: [], setup_script_hash: null, ...base };
  return fromAnswer(blobs, parsed.answer, base);
}

async function fromAnswer(blobs: BlobStore, answer: ReadmeAnswer, base: Omit<AnswerOutcome, 'status' | 'problem' | 'detected_errors' | 'setup_script_hash'>): Promise<AnswerOutcome> {
  return { status: 'answered', problem: null, detected_errors: answer.detected_errors, setup_script_hash: answer.setup_script === null ? null : await blobs.put(answer.setup_script), ...base };
}

const noAnswer = (status: 'failed' | 'timeout', problem: string, spent: Spent, answerHash: string | null): AnswerOutcome => ({
  status,
  problem,
  detected_errors: [],
  setup_script_hash: null,
  answer_hash: answerHash,
  ...spentColumns(spent),
});

/** A kind's reply as the record's answer: its text, answer or output log stored as blobs. */
async function outcome(blobs: BlobStore, reply: ReadmeReply): Promise<AnswerOutcome> {
  if (reply.kind === 'text') return fromText(blobs, reply.text, reply.spent);
  if (reply.kind === 'answer') return fromAnswer(blobs, reply.answer, { answer_hash: await blobs.putJson(reply.stored), ...spentColumns(reply.spent) });
  return noAnswer(reply.status, reply.problem, reply.spent, reply.log === null ? null : await blobs.put(reply.log));
}

/**
 * The README protocol's answers. Each kind answers as its module says (src/agents/registry); the
 * activities are the names the workflow calls (in committed histories), each taking what it always took.
 */
export function createReadmeAnswerActivities({ blobs, docker, settings, log }: { blobs: BlobStore; docker?: Docker; settings?: Settings; log?: (line: string) => void }) {
  const confinement = docker && settings ? { docker, settings, log } : undefined;
  const answer = (spec: ReadmeAgentSpec, given: { promptHash?: string; goldHash?: string; instance?: ReadmeInstanceSpec; timeoutS?: number }) =>
    withHeartbeat(async () => {
      const readme = kindOf(spec).protocols.readme;
      if (!readme) throw new Error(`a ${spec.kind} agent has no README answer`);
      const missing = (what: string) => () => Promise.reject(new Error(`the ${spec.kind} agent's answer needs ${what}, which this activity is not given`));
      const request: ReadmeRequest = {
        prompt: given.promptHash ? () => blobs.getText(given.promptHash!) : missing('the prompt'),
        gold: given.goldHash ? () => blobs.getJson<GoldAnswer>(given.goldHash!) : missing('the gold answer'),
        instance: given.instance ?? null,
        timeoutS: given.timeoutS ?? Infinity,
        env: process.env,
        signal: Context.current().cancellationSignal,
        confinement,
        key: `readme-answer/${spec.name}/${(given.promptHash ?? given.goldHash ?? 'none').slice(0, 16)}`,
      };
      return withActivityFailures(async () => outcome(blobs, await readme.answer(spec, request)));
    });

  return {
    /** The gold errors, with their golden answers as fixes; no setup script. */
    oracleAnswer: (input: { goldHash: string }): Promise<AnswerOutcome> => answer({ kind: 'oracle', name: 'oracle' }, input),
    /** A recorded answer in EnConda's output layout; none recorded for this README is the agent's failure (it answered nothing). */
    replayAnswer: (input: { path: string; instance: ReadmeInstanceSpec }): Promise<AnswerOutcome> => answer({ kind: 'replay', name: 'replay', path: input.path }, input),
    /** One chat completion: upstream's system message and prompt; the reply is the answer. */
    openaiAnswer: (input: { agent: OpenAISpec; promptHash: string }): Promise<AnswerOutcome> => answer(input.agent, input),
    /**
     * A `cli` agent's one call on this worker (and the answer of a kind the workflow does not name):
     * see src/agents/registry/cli.ts. A cli agent sees only PATH, HOME and the variables its spec names.
     */
    cliAnswer: (input: { agent: CliSpec; promptHash: string; timeoutS: number }): Promise<AnswerOutcome> => answer(input.agent, input),

    /** An in-container agent's output (a blob, secrets already redacted) read as its answer. */
    async answerFromOutput(input: { outputHash: string; failure?: string; exitCode: number | null; timedOut: boolean; durationMs: number; tokensIn: number | null; tokensOut: number | null; costUsd: number | null; timeoutS: number }): Promise<AnswerOutcome> {
      const spent = { durationMs: input.durationMs, tokensIn: input.tokensIn, tokensOut: input.tokensOut, costUsd: input.costUsd };
      if (input.timedOut) return noAnswer('timeout', `stopped at the agent's time limit of ${input.timeoutS} s`, spent, input.outputHash);
      if (input.exitCode !== 0 || input.failure) return noAnswer('failed', input.failure ?? `the agent's command exited ${input.exitCode}`, spent, input.outputHash);
      return fromText(blobs, await blobs.getText(input.outputHash), spent);
    },
  };
}
