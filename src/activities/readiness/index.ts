import type Docker from 'dockerode';
import type { BlobStore } from '../../db/blobs';
import type { Db } from '../../db/connect';
import { saveReadinessRecord } from '../../db/readiness';
import { ReadinessRecord } from '../../domain/readiness';
import type { ReadinessStudyInput } from '../../domain/readinessStudy';
import type { Settings } from '../../infra/settings';
import { activitiesOfParts, recordActivities } from '../protocolActivities';
import { createCliSessionActivities } from './cliSession';
import { createOpenAiSessionActivities } from './openaiSession';
import { createProbeActivities } from './probes';
import { createSessionActivities } from './session';
import { createSetupProbeActivities } from './setupProbe';

export interface ReadinessDeps {
  db: Db;
  blobs: BlobStore;
  docker: Docker;
  settings: Settings;
  /** The task queue only this worker polls: an instance's activities all go there once claimed. */
  ownQueue: string;
  log?: (line: string) => void;
}

export function createReadinessActivities(deps: ReadinessDeps) {
  const { ownQueue } = deps;
  const records = recordActivities<ReadinessRecord, ReadinessStudyInput>(deps.db, ReadinessRecord, saveReadinessRecord);
  return {
    /** Taken by whichever worker polls the queue first: the instance then stays on that worker. */
    async claimWorker(): Promise<string> {
      return ownQueue;
    },
    /** A text as a blob (a report the agent handed over in a tool call), so that only its hash travels on. */
    async putText(input: { text: string }): Promise<string> {
      return deps.blobs.put(input.text);
    },
    recordReadiness: records.record,
    recordReadinessStudy: records.recordStudy,
    ...activitiesOfParts(deps, createSessionActivities, createCliSessionActivities, createOpenAiSessionActivities, createProbeActivities, createSetupProbeActivities),
  };
}

export type ReadinessActivities = ReturnType<typeof createReadinessActivities>;
