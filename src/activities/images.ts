import { Context } from '@temporalio/activity';
import type Docker from 'dockerode';
import type { Language } from '../domain/instance';
import { ensureRuntimeImage } from '../infra/images';
import type { Settings } from '../infra/settings';
import { withHeartbeat } from './heartbeat';

export interface PrepareImageInput {
  language: Language;
}

export interface PrepareImageResult {
  language: Language;
  tag: string;
  durationMs: number;
}

/** What a running image build reports in its heartbeats: the latest line and how many came. */
export interface ImageBuildProgress {
  language: Language;
  lines: number;
  last: string;
}

export function createImageActivities({ docker, settings, log }: { docker: Docker; settings: Settings; log?: (line: string) => void }) {
  return {
    /**
     * Makes sure a language's runtime image exists before any instance needs it: built once per recipe,
     * a build already running in this worker is joined. Heartbeats on a timer; the latest build line
     * travels in the heartbeat, so `study run` and the Temporal UI show it.
     */
    async prepareImage(input: PrepareImageInput): Promise<PrepareImageResult> {
      const started = Date.now();
      const progress: ImageBuildProgress = { language: input.language, lines: 0, last: 'checking' };
      const signal = Context.current().cancellationSignal;
      log?.(`[image ${input.language}] preparing`);
      const tag = await withHeartbeat(
        () =>
          Promise.race([
            ensureRuntimeImage(
              docker,
              settings,
              input.language,
              (line) => {
                progress.lines++;
                progress.last = line.length > 200 ? line.slice(0, 200) + '…' : line;
              },
              { recheck: true },
            ),
            // A cancelled study stops waiting; the build itself finishes for whoever needs it next.
            new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
          ]),
        () => progress,
      );
      const durationMs = Date.now() - started;
      log?.(`[image ${input.language}] ready: ${tag} (${(durationMs / 1000).toFixed(1)} s)`);
      return { language: input.language, tag, durationMs };
    },
  };
}
