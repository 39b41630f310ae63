import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { MAX_PROJECT_BYTES } from '../domain/files';
import { RUN_FILE, RunSpecSchema } from '../domain/runSpec';
import type { ReplaySpec } from './spec';
import { readProjectDir, readRegularFile } from './projectDir';
import { AgentGaveUpError, AgentInputError, type Agent, type AgentRequest, type AgentResponse } from './types';

/** Optional per-iteration metadata in a recording; it is not part of the project. */
export const REPLAY_METADATA_FILE = '.replay.json';

const ReplayMetadata = z.object({
  tokens_in: z.number().nonnegative().nullable().optional(),
  tokens_out: z.number().nonnegative().nullable().optional(),
  cost_usd: z.number().nonnegative().nullable().optional(),
  duration_ms: z.number().nonnegative().optional(),
  /** `human`: this iteration is a person's fix, kept apart from the agent's repairs in the record. */
  author: z.enum(['agent', 'human']).optional(),
  /** How to run this iteration's program: {"args": [...], "stdin": "...", "env": {...}}. */
  run: RunSpecSchema.optional(),
});

/**
 * Plays back a recorded trajectory: call n (iteration n) of an instance returns the files under
 * <path>/<language>/<task>/<trial>/<n>/, the trial being the spec's `trial` where it names one.
 */
export class ReplayAgent implements Agent {
  constructor(private readonly spec: ReplaySpec) {}

  get name(): string {
    return this.spec.name;
  }

  async call(req: AgentRequest, signal?: AbortSignal): Promise<AgentResponse> {
    signal?.throwIfAborted();
    const started = Date.now();
    // A spec's `trial` plays one recorded trial back for every trial of the study (the noise floor).
    const trial = this.spec.trial ?? req.trial;
    const instanceDir = path.join(this.spec.path, req.language, req.task.id, String(trial));
    if (!isDirectory(instanceDir)) {
      throw new AgentInputError(
        `replay agent "${this.name}": no recording of ${req.language}/${req.task.id} trial ${trial}: ${instanceDir} does not exist`,
      );
    }
    const iterationDir = path.join(instanceDir, String(req.iteration));
    if (!isDirectory(iterationDir)) {
      const recorded = countIterations(instanceDir);
      // Asked for the next Repair after the last recorded iteration: the agent stopped there.
      if (req.iteration > 0 && recorded === req.iteration) {
        throw new AgentGaveUpError(`replay agent "${this.name}": ${instanceDir} ends after iteration ${recorded - 1}, which failed: the agent gave up`);
      }
      throw new AgentInputError(
        `replay agent "${this.name}": ${instanceDir} records ${recorded} iteration(s)` +
          `${recorded > 0 ? ` (0..${recorded - 1})` : ''}; iteration ${req.iteration} was asked for`,
      );
    }

    const metadata = readMetadata(path.join(iterationDir, REPLAY_METADATA_FILE));
    const { files, unreadable, hardLinked, tooLarge, totalBytes } = await readProjectDir(iterationDir, (rel) => rel === REPLAY_METADATA_FILE);
    if (tooLarge) {
      throw new AgentInputError(
        `replay agent "${this.name}": ${iterationDir} holds ${totalBytes} bytes of files, over the limit of ${MAX_PROJECT_BYTES} bytes (${MAX_PROJECT_BYTES / 1024 / 1024} MiB) per project`,
      );
    }
    if (hardLinked.length > 0) {
      throw new AgentInputError(
        `replay agent "${this.name}": ${iterationDir} holds hard links (files with more than one name, which may be files outside the recording), refused: ${hardLinked.join(', ')}`,
      );
    }
    if (unreadable.length > 0) {
      throw new AgentInputError(`replay agent "${this.name}": ${iterationDir} holds entries that are not regular files (symbolic links, FIFOs, sockets) or cannot be read: ${unreadable.join(', ')}`);
    }
    if (metadata.run && RUN_FILE in files) {
      throw new AgentInputError(`replay agent "${this.name}": ${iterationDir} says how to run it twice, in ${REPLAY_METADATA_FILE} ("run") and in ${RUN_FILE}; keep one`);
    }
    return {
      files,
      tokensIn: metadata.tokens_in ?? null,
      tokensOut: metadata.tokens_out ?? null,
      costUsd: metadata.cost_usd ?? null,
      durationMs: metadata.duration_ms ?? Date.now() - started,
      ...(metadata.author ? { author: metadata.author } : {}),
      ...(metadata.run ? { run: metadata.run } : {}),
    };
  }
}

// Synchronous, as the recording's files are read (src/agents/projectDir.ts): a few stats cost less than their thread-pool round trips.
function isDirectory(p: string): boolean {
  return fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/** Iterations are folders 0, 1, 2, ... without gaps; a gap ends the recording. */
function countIterations(instanceDir: string): number {
  let n = 0;
  while (isDirectory(path.join(instanceDir, String(n)))) n += 1;
  return n;
}

const METADATA_MAX_BYTES = 64 * 1024;

function readMetadata(file: string): z.infer<typeof ReplayMetadata> {
  try {
    fs.lstatSync(file);
  } catch {
    return {};
  }
  // As the project's files: no link is followed and no hard link read, so a JSON error never quotes a host file.
  const read = readRegularFile(file, METADATA_MAX_BYTES);
  if ('refused' in read) {
    const why = read.refused === 'hard link' ? 'a hard link (a file with more than one name), refused' : `not a UTF-8 regular file of at most ${METADATA_MAX_BYTES} bytes`;
    throw new AgentInputError(`${file} is ${why}`);
  }
  const text = read.text;
  let parsed;
  try {
    parsed = ReplayMetadata.safeParse(JSON.parse(text));
  } catch (e) {
    throw new AgentInputError(`${file} is not JSON: ${(e as Error).message}`);
  }
  if (!parsed.success) throw new AgentInputError(`${file} is not valid replay metadata:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
