import type Docker from 'dockerode';
import type { BlobStore } from '../../db/blobs';
import type { Db } from '../../db/connect';
import { saveReadmeRecord } from '../../db/readme';
import { ReadmeRecord } from '../../domain/readme';
import type { ReadmeStudyInput } from '../../domain/readmeStudy';
import type { Settings } from '../../infra/settings';
import { activitiesOfParts, recordActivities } from '../protocolActivities';
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
  const records = recordActivities<ReadmeRecord, ReadmeStudyInput>(deps.db, ReadmeRecord, saveReadmeRecord);
  return {
    recordReadme: records.record,
    recordReadmeStudy: records.recordStudy,
    ...activitiesOfParts(deps, createReadmePrepareActivities, createReadmeAnswerActivities, createReadmeScoreActivities, createPassActivities),
  };
}

export type ReadmeActivities = ReturnType<typeof createReadmeActivities>;
