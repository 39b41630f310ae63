import type { WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { ImageBuildProgress } from '../activities/images';
import type { StudyProgress } from '../workflows/study';

/**
 * Lines about the study's image preparation: which images are ready, and for each one still being
 * prepared the latest build line, read from its pending activity's heartbeat details.
 */
export async function imageProgressLines(handle: WorkflowHandle, p: StudyProgress): Promise<string[]> {
  const images = Object.entries(p.images ?? {});
  if (!images.some(([, state]) => state === 'preparing')) return [];
  const latest = new Map<string, ImageBuildProgress>();
  try {
    const pending = (await handle.describe()).raw.pendingActivities ?? [];
    for (const a of pending) {
      if (a.activityType?.name !== 'prepareImage') continue;
      const payload = a.heartbeatDetails?.payloads?.[0];
      if (!payload) continue;
      const details = defaultPayloadConverter.fromPayload<ImageBuildProgress>(payload);
      if (details?.language) latest.set(details.language, details);
    }
  } catch {
    // describe can fail while the server restarts; the next poll tries again
  }
  return images.map(([language, state]) => {
    if (state === 'ready') return `image ${language}: ready`;
    const d = latest.get(language);
    return `image ${language}: preparing${d ? ` (${d.lines} lines) ${d.last}` : ''}`;
  });
}
