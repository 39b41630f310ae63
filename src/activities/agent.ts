import { ApplicationFailure, Context } from '@temporalio/activity';
import { AgentInputError } from '../agents/types';
import type { Agent } from '../agents/types';
import type { AgentSpec } from '../agents/spec';
import type { Catalog } from '../catalog/catalog';
import { genPrompt, repairPrompt } from '../catalog/prompts';
import { MANIFEST_FILE } from '../ecosystems/manifestFiles';
import type { BlobStore } from '../db/blobs';
import type { Db } from '../db/connect';
import { validateProjectFiles, type ProjectFiles } from '../domain/files';
import { errorTail } from '../ecosystems/errorTail';
import type { AgentCallInput, AgentCallResult } from './types';

export interface AgentActivityDeps {
  db: Db;
  blobs: BlobStore;
  catalog: Catalog;
  createAgent: (spec: AgentSpec) => Agent;
}

export function createAgentActivities({ db, blobs, catalog, createAgent }: AgentActivityDeps) {
  return {
    /** Gen (iteration 0) or Repair (iteration i > 0): asks the agent for a project and stores its files. */
    async callAgent(input: AgentCallInput): Promise<AgentCallResult> {
      const previousFiles = input.previousFilesHash ? await blobs.getJson<ProjectFiles>(input.previousFilesHash) : null;
      const tail = input.error ? errorTail(await blobs.getText(input.error.hash)) : '';
      const prompt =
        input.iteration === 0
          ? genPrompt(catalog, input.task.id, input.language)
          : repairPrompt({
              language: input.language,
              manifestFile: MANIFEST_FILE[input.language],
              errorClass: input.error?.class ?? null,
              errorTail: tail,
              iteration: input.iteration,
              budget: input.budget,
            });
      const agent = createAgent(input.agent);
      let response;
      try {
        response = await agent.call(
          {
            instanceId: input.instanceId,
            agent: input.agent.name,
            task: input.task,
            language: input.language,
            trial: input.trial,
            iteration: input.iteration,
            prompt,
            previousFiles,
            error: input.error ? { class: input.error.class, tail } : null,
          },
          Context.current().cancellationSignal,
        );
        validateProjectFiles(response.files);
      } catch (err) {
        if (err instanceof AgentInputError) throw ApplicationFailure.nonRetryable(err.message, 'AgentInputError');
        throw err;
      }
      const [filesHash, promptHash, transcriptHash] = await Promise.all([
        blobs.putJson(sortedFiles(response.files)),
        blobs.put(prompt),
        response.transcript ? blobs.put(response.transcript) : null,
      ]);
      const meta = {
        prompt_hash: promptHash,
        transcript_hash: transcriptHash,
        tokens_in: response.tokensIn,
        tokens_out: response.tokensOut,
        cost_usd: response.costUsd,
        duration_ms: response.durationMs,
      };
      await db
        .insertInto('iterations')
        .values({ instance_id: input.instanceId, iteration: input.iteration, files_hash: filesHash, agent: JSON.stringify(meta), execution: null })
        .onConflict((oc) =>
          oc.columns(['instance_id', 'iteration']).doUpdateSet({ files_hash: filesHash, agent: JSON.stringify(meta), execution: null }),
        )
        .execute();
      return {
        filesHash,
        fileCount: Object.keys(response.files).length,
        tokensIn: response.tokensIn,
        tokensOut: response.tokensOut,
        costUsd: response.costUsd,
        durationMs: response.durationMs,
      };
    },
  };
}

/** Same files, same hash: key order must not change the content address. */
function sortedFiles(files: ProjectFiles): ProjectFiles {
  return Object.fromEntries(Object.keys(files).sort().map((k) => [k, files[k]]));
}
