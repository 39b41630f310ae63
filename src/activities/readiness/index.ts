import type Docker from 'dockerode';
import type { BlobStore } from '../../db/blobs';
import type { Db } from '../../db/connect';
import { saveReadinessRecord } from '../../db/readiness';
import { ReadinessRecord } from '../../domain/readiness';
import type { ReadinessStudyInput } from '../../domain/readinessStudy';
import { saveStudy } from '../../db/studies';
import type { Settings } from '../../infra/settings';
import { createCliSessionActivities } from './cliSession';
import { createOpenAiSessionActivities } from './openaiSession';
import { createProbeActivities } from './probes';
import { createSessionActivities } from './session';

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
  const { db, ownQueue } = deps;
  return {
    /** Taken by whichever worker polls the queue first: the instance then stays on that worker. */
    async claimWorker(): Promise<string> {
      return ownQueue;
    },
    /** A text as a blob (a report the agent handed over in a tool call), so that only its hash travels on. */
    async putText(input: { text: string }): Promise<string> {
      return deps.blobs.put(input.text);
    },
    async recordReadiness(input: { instanceId: string; record: ReadinessRecord }): Promise<void> {
      await saveReadinessRecord(db, input.instanceId, ReadinessRecord.parse(input.record));
    },
    async recordReadinessStudy(input: { study: ReadinessStudyInput }): Promise<void> {
      await saveStudy(db, input.study);
    },
    ...createSessionActivities(deps),
    ...createCliSessionActivities(deps),
    ...createOpenAiSessionActivities(deps),
    ...createProbeActivities(deps),
  };
}

export type ReadinessActivities = ReturnType<typeof createReadinessActivities>;
