import { Context } from '@temporalio/activity';
import { activityFailure, AgentCallFailedError, AgentGaveUpError, AgentInputError, AgentOutputError, ModelEndpointError, type Agent, type AgentRequest, type AgentResponse } from '../agents/types';
import type { AgentCallFailure } from '../domain/instance';
import { AGENT_OUTPUT_SAMPLES } from '../domain/activityTimeouts';
import { capMessage } from '../text/excerpt';
import { withHeartbeat } from './heartbeat';
import { honoursRunFile, runSpecOf } from '../agents/runFile';
import type { RunSpec } from '../domain/runSpec';
import { knownSecrets, redactFiles, redactSecrets, type KnownSecret } from '../agents/secrets';
import type { AgentSpec } from '../agents/spec';
import type { Catalog } from '../catalog/catalog';
import { genPrompt, repairPrompt, withRunFileNote } from '../catalog/prompts';
import { repairMachine } from '../catalog/environmentSentence';
import { runtimeImageFacts } from '../catalog/imageFacts';
import { UNSTATED_PROMPT_ENVIRONMENT } from '../domain/promptEnvironment';
import type { Settings } from '../infra/settings';
import { MANIFEST_FILE } from '../ecosystems/manifestFiles';
import type { BlobStore } from '../db/blobs';
import type { Db } from '../db/connect';
import { recordAgentCall } from '../db/iterations';
import type { AgentCallMeta } from '../db/schema';
import { validateProjectFiles, type ProjectFiles } from '../domain/files';
import { errorTail } from '../ecosystems/errorTail';
import type { AgentCallInput, AgentCallResult } from './types';

export interface AgentActivityDeps {
  db: Db;
  blobs: BlobStore;
  catalog: Catalog;
  createAgent: (spec: AgentSpec) => Agent;
  /** The Debian suite the runtime images are built from, whose facts an `actual` prompt states; default bookworm. */
  settings?: Pick<Settings, 'debianSuite'>;
}

/** An agent's answer, and the storing of it (its blobs, then its iteration's row), which may still run. */
export interface Answered {
  result: AgentCallResult;
  /** Settles once the answer is stored; never an unhandled rejection, whoever awaits it later. */
  stored: Promise<void>;
}

/** Gen (iteration 0) or Repair (iteration i > 0): asks the agent for a project; its files and the iteration are stored in `stored`. */
export function createAgentAnswer({ db, blobs, catalog, createAgent, settings }: AgentActivityDeps): (input: AgentCallInput) => Promise<Answered> {
  return async function answer(input: AgentCallInput): Promise<Answered> {
    const previousFiles = input.previousFilesHash ? await blobs.getJson<ProjectFiles>(input.previousFilesHash) : null;
    const session = input.previousSessionHash ? Buffer.from(await blobs.getText(input.previousSessionHash), 'base64') : null;
    const tail = input.error ? errorTail(await blobs.getText(input.error.hash)) : '';
    // The environment the prompts state (docs/prompts.md): the image's facts, or the paper's text.
    const environment = { environment: input.promptEnvironment ?? UNSTATED_PROMPT_ENVIRONMENT, facts: runtimeImageFacts(input.language, settings?.debianSuite ?? 'bookworm') };
    let prompt =
      input.iteration === 0
        ? (input.task.prompt ?? genPrompt(catalog, input.task.id, input.language, environment))
        : repairPrompt({
            language: input.language,
            manifestFile: MANIFEST_FILE[input.language],
            errorClass: input.error?.class ?? null,
            errorTail: tail,
            iteration: input.iteration,
            budget: input.budget,
            machine: repairMachine(environment.environment, environment.facts),
          });
    if (input.agent.kind !== 'replay' && honoursRunFile(input.agent)) prompt = withRunFileNote(prompt);
    const agent = createAgent(input.agent);
    const request = {
      instanceId: input.instanceId,
      agent: input.agent.name,
      task: input.task,
      language: input.language,
      trial: input.trial,
      iteration: input.iteration,
      prompt,
      previousFiles,
      error: input.error ? { class: input.error.class, tail } : null,
      session,
    };
    const signal = Context.current().cancellationSignal;
    const sampled = await withHeartbeat(() => sampleUsableAnswer(agent, request, signal, honoursRunFile(input.agent)));
    const { cost } = sampled;
    if (sampled.kind === 'gave-up') return { result: { kind: 'gave-up', message: capMessage(sampled.message), ...cost }, stored: Promise.resolve() };
    // The worker's secret values given to the agent are never stored, wherever the agent echoed them.
    const secrets = knownSecrets(input.agent, process.env);
    // The session the agent continues at its next call: kept with the instance, so a retry or another worker resumes it.
    const sessionBlob = sampled.session ? blobs.write(sampled.session.toString('base64')) : null;
    const kept = sessionBlob ? { sessionHash: sessionBlob.hash } : {};
    const about = {
      ...(sampled.agentVersion ? { agent_version: sampled.agentVersion } : {}),
      ...(sampled.costSource !== undefined ? { cost_source: sampled.costSource } : {}),
      ...(sampled.overheadMs !== undefined ? { overhead_ms: sampled.overheadMs } : {}),
    };
    if (sampled.kind === 'unusable') {
      const message = redactSecrets(sampled.message, secrets);
      const transcript = sampled.transcript ? redactSecrets(sampled.transcript, secrets) : null;
      const [error, promptBlob, transcriptBlob] = [blobs.write(message), blobs.write(prompt), transcript ? blobs.write(transcript) : null];
      return {
        result: { kind: 'unusable', errorHash: error.hash, message: capMessage(message), ...(sampled.errorClass !== 'AgentOutput' ? { errorClass: sampled.errorClass } : {}), ...kept, ...cost },
        stored: afterBlobs([error, promptBlob, transcriptBlob, sessionBlob], () =>
          saveIteration(null, { prompt_hash: promptBlob.hash, transcript_hash: transcriptBlob?.hash ?? null, output_error_hash: error.hash, ...costMeta(cost), ...about }),
        ),
      };
    }
    const response = { ...sampled.response, files: redactFiles(sampled.response.files, secrets) };
    const run = sampled.run && redactRunSpec(sampled.run, secrets);
    const transcript = response.transcript ? redactSecrets(response.transcript, secrets) : response.transcript;
    const [filesBlob, promptBlob, transcriptBlob] = [blobs.write(JSON.stringify(sortedFiles(response.files))), blobs.write(prompt), transcript ? blobs.write(transcript) : null];
    return {
      result: {
        kind: 'project',
        filesHash: filesBlob.hash,
        fileCount: Object.keys(response.files).length,
        ...(response.author ? { author: response.author } : {}),
        ...(run ? { run } : {}),
        ...kept,
        ...cost,
      },
      stored: afterBlobs([filesBlob, promptBlob, transcriptBlob, sessionBlob], () =>
        saveIteration(filesBlob.hash, { prompt_hash: promptBlob.hash, transcript_hash: transcriptBlob?.hash ?? null, ...costMeta(cost), ...about }),
      ),
    };

    async function saveIteration(filesHash: string | null, meta: AgentCallMeta) {
      if (signal.aborted) throw signal.reason ?? new Error('callAgent: cancelled before its iteration was stored');
      await recordAgentCall(db, { instanceId: input.instanceId, iteration: input.iteration, filesHash, meta });
    }
  };
}

export function createAgentActivities(deps: AgentActivityDeps) {
  const answer = createAgentAnswer(deps);
  return {
    /** Gen or Repair as an activity of its own: it returns once the answer is stored. */
    async callAgent(input: AgentCallInput): Promise<AgentCallResult> {
      const { result, stored } = await answer(input);
      await stored;
      return result;
    },
  };
}

/** The iteration's row goes after its blobs, so it never names one the database lacks. */
function afterBlobs(writes: ({ written: Promise<string> } | null)[], row: () => Promise<void>): Promise<void> {
  const stored = Promise.all(writes.map((w) => w?.written)).then(row);
  stored.catch(() => undefined);
  return stored;
}

/** What the agent says of itself in a call: its session to continue, its version, whose estimate its cost is. */
interface Kept {
  session?: Buffer | null;
  /** What envgap added to the call (a confined agent's sandbox, files in and out). */
  overheadMs?: number;
  agentVersion?: string | null;
  costSource?: string | null;
  transcript?: string;
}
type Sampled =
  | ({ kind: 'project'; response: AgentResponse; run: RunSpec | undefined; cost: Cost } & Kept)
  | ({ kind: 'unusable'; errorClass: AgentCallFailure; message: string; cost: Cost } & Kept)
  | ({ kind: 'gave-up'; message: string; cost: Cost } & Kept);
type Cost = { tokensIn: number | null; tokensOut: number | null; costUsd: number | null; durationMs: number; samples: number };

/**
 * Asks the agent up to AGENT_OUTPUT_SAMPLES times while its answer is unusable (AgentOutputError,
 * files with unsafe paths, an invalid envgap.run.json); the cost of every sample counts. Other errors propagate: input that can
 * never succeed becomes a non-retryable AgentInputError, anything else is retried by Temporal.
 */
async function sampleUsableAnswer(agent: Agent, request: AgentRequest, signal: AbortSignal, honourRunFile: boolean): Promise<Sampled> {
  const cost: Cost = { tokensIn: null, tokensOut: null, costUsd: null, durationMs: 0, samples: 0 };
  const add = (a: number | null, b: number | null) => (b == null ? a : (a ?? 0) + b);
  let last = '';
  while (cost.samples < AGENT_OUTPUT_SAMPLES) {
    const started = Date.now();
    cost.samples++;
    try {
      const response = await agent.call(request, signal);
      cost.tokensIn = add(cost.tokensIn, response.tokensIn);
      cost.tokensOut = add(cost.tokensOut, response.tokensOut);
      cost.costUsd = add(cost.costUsd, response.costUsd);
      usableFiles(response);
      return { kind: 'project', response, run: runSpecOf(response, honourRunFile), cost, session: response.session, agentVersion: response.agentVersion, costSource: response.costSource, overheadMs: response.overheadMs };
    } catch (err) {
      if (err instanceof AgentCallFailedError) {
        // The agent's own failure: a failed iteration of its class, never asked again in this call.
        const s = err.spent;
        cost.tokensIn = add(cost.tokensIn, s.tokensIn);
        cost.tokensOut = add(cost.tokensOut, s.tokensOut);
        cost.costUsd = add(cost.costUsd, s.costUsd);
        return { kind: 'unusable', errorClass: err.errorClass, message: err.message, cost, session: s.session, agentVersion: s.agentVersion, costSource: s.costSource, transcript: s.transcript };
      }
      if (err instanceof AgentInputError || err instanceof ModelEndpointError) throw activityFailure(err);
      if (err instanceof AgentGaveUpError) return { kind: 'gave-up', message: err.message, cost };
      if (!(err instanceof AgentOutputError)) throw err;
      last = err.message;
    } finally {
      cost.durationMs += Date.now() - started;
    }
  }
  return { kind: 'unusable', errorClass: 'AgentOutput', message: `the agent's answer was unusable in ${cost.samples} samples; the last one: ${last}`, cost };
}

/** Files with an unsafe path are an unusable answer of the agent, like one that is not JSON. */
function usableFiles(response: AgentResponse): void {
  try {
    validateProjectFiles(response.files);
  } catch (err) {
    throw new AgentOutputError((err as Error).message);
  }
}

function redactRunSpec(spec: RunSpec, secrets: readonly KnownSecret[]): RunSpec {
  const r = (s: string) => redactSecrets(s, secrets);
  return { args: spec.args.map(r), stdin: spec.stdin === null ? null : r(spec.stdin), env: Object.fromEntries(Object.entries(spec.env).map(([k, v]) => [k, r(v)])) };
}

function costMeta(c: Cost) {
  return { tokens_in: c.tokensIn, tokens_out: c.tokensOut, cost_usd: c.costUsd, duration_ms: c.durationMs, samples: c.samples };
}

/** Same files, same hash: key order must not change the content address. */
function sortedFiles(files: ProjectFiles): ProjectFiles {
  return Object.fromEntries(Object.keys(files).sort().map((k) => [k, files[k]]));
}
