import type Docker from 'dockerode';
import type { BlobStore } from '../../db/blobs';
import type { Db } from '../../db/connect';
import { saveStudy } from '../../db/studies';
import { saveReadmeRecord } from '../../db/readme';
import { ReadmeRecord } from '../../domain/readme';
import type { ReadmeStudyInput } from '../../domain/readmeStudy';
import type { Settings } from '../../infra/settings';
import { createReadmeAnswerActivities } from './answers';
import { createPassActivities } from './passAt1';
import { createReadmePrepareActivities } from './prepare';
import { createReadmeScoreActivities } from './score';

export interface ReadmeDeps {
  db: Db;
  blobs: BlobStore;
  docker: Docker;
  settings: Settings;
  log?: (line: string) => void;
}

/** The README diagnosis protocol's activities; its in-container agents use the readiness session's. */
export function createReadmeActivities(deps: ReadmeDeps) {
  const { db } = deps;
  return {
    async recordReadme(input: { instanceId: string; record: ReadmeRecord }): Promise<void> {
      await saveReadmeRecord(db, input.instanceId, ReadmeRecord.parse(input.record));
    },
    async recordReadmeStudy(input: { study: ReadmeStudyInput }): Promise<void> {
      await saveStudy(db, input.study);
    },
    ...createReadmePrepareActivities(deps),
    ...createReadmeAnswerActivities(deps),
    ...createReadmeScoreActivities(deps),
    ...createPassActivities(deps),
  };
}

export type ReadmeActivities = ReturnType<typeof createReadmeActivities>;
