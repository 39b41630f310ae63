import type Docker from 'dockerode';
import type { Agent } from '../agents/types';
import type { AgentSpec } from '../agents/spec';
import type { Catalog } from '../catalog/catalog';
import type { BlobStore } from '../db/blobs';
import type { Db } from '../db/connect';
import type { MachineBudget } from '../infra/machineBudget';
import type { Settings } from '../infra/settings';
import { createAgentActivities, createAgentAnswer } from './agent';
import { createAnswerAndExecuteActivities } from './answerAndExecute';
import { createConfirmationRecordActivities } from './confirmationRecords';
import { createExecuteActivities } from './execute';
import { createImageActivities } from './images';
import { createReadinessActivities } from './readiness';
import { createReadmeActivities } from './readme';
import { createRecordActivities } from './record';
import { createRemovalTrialActivities } from './removalTrial';
import { createReresolveActivities } from './reresolve';

export interface ActivityDeps {
  db: Db;
  blobs: BlobStore;
  docker: Docker;
  settings: Settings;
  catalog: Catalog;
  createAgent: (spec: AgentSpec) => Agent;
  log?: (line: string) => void;
  /** This worker's own task queue (src/workers/cpuWorker.ts ownQueue). */
  ownQueue: string;
  /** The machine's CPUs and memory that every container of this process reserves from. */
  machine: MachineBudget;
}

export function createActivities(deps: ActivityDeps) {
  const agent = createAgentActivities(deps);
  const execute = createExecuteActivities(deps);
  return {
    ...agent,
    ...execute,
    ...createAnswerAndExecuteActivities({ answer: createAgentAnswer(deps), executeProject: execute.executeProject }),
    ...createImageActivities(deps),
    ...createRecordActivities(deps),
    ...createReadinessActivities(deps),
    ...createReadmeActivities(deps),
    ...createConfirmationRecordActivities(deps),
    ...createRemovalTrialActivities(deps),
    ...createReresolveActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
