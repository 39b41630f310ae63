import { Context } from '@temporalio/activity';
import type Docker from 'dockerode';
import type { BlobStore } from '../db/blobs';
import { compareRuns, type ComparedRun } from '../domain/confirmation/comparison';
import { normalisedRunOutput } from '../domain/confirmation/runOutput';
import type { RemovalTrialInput, RemovalTrialResult, TrialComparison, TrialRun } from '../domain/confirmation/types';
import type { ProjectFiles } from '../domain/files';
import { projectWithout } from '../ecosystems/removal';
import { ensureRuntimeImage } from '../infra/images';
import { sharedMachineBudget, type MachineBudget } from '../infra/machineBudget';
import type { Settings } from '../infra/settings';
import { removeEarlierAttempts, SANDBOX_LABELS, sandboxIdentity } from '../sandbox';
import { withHeartbeat } from './heartbeat';
import { openProjectSandbox, runProject } from './projectSandbox';

export interface RemovalTrialDeps {
  blobs: BlobStore;
  docker: Docker;
  settings: Settings;
  log?: (line: string) => void;
  machine?: MachineBudget;
}

export function createRemovalTrialActivities({ blobs, docker, settings, log, machine = sharedMachineBudget() }: RemovalTrialDeps) {
  return {
    /**
     * One trial of phantom confirmation: the final project with the trial's names taken out, installed,
     * built and run in a fresh sandbox as an iteration's Execute is (src/activities/projectSandbox.ts),
     * its run compared with the unchanged project's. Stores only the run's normalised output (a
     * content-addressed blob), so a retried attempt does the same and leaves the same; an attempt's
     * sandbox is named from the owner, the trial's key and the attempt, and a retry removes the earlier
     * attempts' first. Heartbeats on a timer throughout.
     */
    async removalTrial(input: RemovalTrialInput): Promise<RemovalTrialResult> {
      const ctx = Context.current();
      const signal = ctx.cancellationSignal;
      let phase = 'image';
      return withHeartbeat(() => trial(ctx.info.attempt), () => ({ phase, trial: input.key }));

      async function trial(attempt: number): Promise<RemovalTrialResult> {
        const started = Date.now();
        const changed = projectWithout(input.language, await blobs.getJson<ProjectFiles>(input.filesHash), input.remove);
        const image = await ensureRuntimeImage(docker, settings, input.language, (line) => log?.(`[image] ${line}`));
        await removeEarlierAttempts(docker, { [SANDBOX_LABELS.instance]: input.owner, [SANDBOX_LABELS.role]: input.key }, attempt);
        phase = 'machine';
        return machine.with({ cpus: input.limits.cpus, memoryMb: input.limits.memory_mb }, signal, async () => {
          phase = 'steps';
          const identity = sandboxIdentity({ instanceId: input.owner, protocol: 'envgap', role: input.key, attempt });
          const session = await openProjectSandbox({ docker, settings, log }, { image, ...identity, limits: input.limits, signal });
          let r;
          try {
            r = await runProject(session, input.language, changed.files, input.limits, input.run, input.resolveAsOf ? { resolveAsOf: input.resolveAsOf } : {});
          } finally {
            await session.close();
          }
          if (signal.aborted) throw signal.reason;
          const output = r.runOutput === undefined ? null : normalisedRunOutput(r.runOutput);
          const run: TrialRun = {
            success: r.success,
            failedStep: r.failedStep,
            exitCode: r.exitCode,
            runKind: r.success ? (r.runKind ?? 'program') : null,
            outputHash: output === null ? null : await blobs.put(output),
            durationMs: Date.now() - started,
          };
          const compared: ComparedRun = { ...run, output, errorOutput: r.errorOutput };
          return { run, comparison: await comparisonOf(compared), notFound: changed.notFound };
        });
      }

      /** Against the baseline's run; the unchanged project's own first run against a success, so that where it fails the record says how. */
      async function comparisonOf(run: ComparedRun): Promise<TrialComparison> {
        const b = input.baseline;
        if (!b) return run.success ? { same: true } : compareRuns({ success: true, failedStep: null, exitCode: 0, runKind: 'program', output: null }, run, false);
        const output = b.outputHash === null ? null : (await blobs.get(b.outputHash)).toString('utf8');
        return compareRuns({ ...b, output }, run, input.compareOutput);
      }
    },
  };
}
