import type { BlobStore } from '../../db/blobs';
import type { DetectedError, GoldAnswer } from '../../domain/readme';
import type { JudgeSpec } from '../../domain/readmeStudy';
import { deterministicJudge, scoreReadme, type Judge, type ReadmeFileScore } from '../../metrics/readme';
import { openaiJudge } from '../../agents/openaiJudge';
import { withHeartbeat } from '../heartbeat';

export function judgeFor(spec: JudgeSpec): Judge {
  if (spec.kind === 'deterministic') return deterministicJudge;
  return openaiJudge({ model: spec.model, baseUrl: spec.base_url, apiKeyEnv: spec.api_key_env, timeoutMs: spec.timeout_s * 1000 });
}

export function createReadmeScoreActivities({ blobs }: { blobs: BlobStore }) {
  return {
    /** One README's diagnosis against its gold, by the study's judge; `detected` null: the agent gave no usable answer (zero predictions). */
    async scoreReadmeAnswer(input: { instance: string; goldHash: string; detected: DetectedError[] | null; judge: JudgeSpec }): Promise<ReadmeFileScore> {
      const gold = await blobs.getJson<GoldAnswer>(input.goldHash);
      return withHeartbeat(() => scoreReadme(input.instance, gold, input.detected, judgeFor(input.judge)));
    },
  };
}
