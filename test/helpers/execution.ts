import { MockActivityEnvironment } from '@temporalio/testing';
import { createExecuteActivities } from '../../src/activities/execute';
import type { ExecuteInput, ExecutionOutcome } from '../../src/activities/types';
import { BlobStore } from '../../src/db/blobs';
import type { ProjectFiles } from '../../src/domain/files';
import type { Language } from '../../src/domain/instance';
import type { RunSpec } from '../../src/domain/runSpec';
import { DEFAULT_LIMITS, type ContainerLimits } from '../../src/domain/study';
import { connectDocker } from '../../src/infra/docker';
import { loadSettings } from '../../src/infra/settings';
import { freshDatabase } from './postgres';

export interface Execution {
  outcome: ExecutionOutcome;
  log: string;
  errorOutput: string | null;
  filesHash: string;
}

export interface ExecutionHarness {
  database: Awaited<ReturnType<typeof freshDatabase>>;
  blobs: BlobStore;
  activities: ReturnType<typeof createExecuteActivities>;
  /** One executeProject of `files` (iteration 0 of `instanceId`) in a real container, with its log and error output. */
  execute(instanceId: string, language: Language, files: ProjectFiles, limits?: Partial<ContainerLimits>, run?: RunSpec, options?: { declare?: boolean; instance?: ExecuteInput['instance']; resolveAsOf?: string }): Promise<Execution>;
}

/** For one test file: a fresh database and the real execute activities, called directly (no workflow). */
export function useExecutionHarness(): ExecutionHarness {
  const h = {} as ExecutionHarness;
  beforeAll(async () => {
    h.database = await freshDatabase();
    h.blobs = new BlobStore(h.database.db);
    h.activities = createExecuteActivities({ db: h.database.db, blobs: h.blobs, docker: connectDocker(), settings: loadSettings() });
  }, 60000);
  afterAll(() => h.database?.drop());
  h.execute = async (instanceId, language, files, limits = {}, run, options = {}) => {
    const filesHash = await h.blobs.putJson(files);
    await h.database.db.insertInto('iterations').values({ instance_id: instanceId, iteration: 0, files_hash: filesHash, agent: null, execution: null }).execute();
    const input: ExecuteInput = { instanceId, iteration: 0, language, filesHash, limits: { ...DEFAULT_LIMITS, ...limits }, ...(run ? { run } : {}), ...(options.declare ? { declare: true } : {}), ...(options.instance ? { instance: options.instance } : {}), ...(options.resolveAsOf ? { resolveAsOf: options.resolveAsOf } : {}) };
    const outcome = (await new MockActivityEnvironment().run(h.activities.executeProject, input)) as ExecutionOutcome;
    return {
      outcome,
      log: await h.blobs.getText(outcome.artefacts.log),
      errorOutput: outcome.errorHash ? await h.blobs.getText(outcome.errorHash) : null,
      filesHash,
    };
  };
  return h;
}
