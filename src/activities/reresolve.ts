import { ApplicationFailure, Context } from '@temporalio/activity';
import { findInstanceRow } from '../db/instances';
import { instanceIterations } from '../db/iterations';
import { saveReresolution } from '../db/reresolutions';
import type { ProjectFiles } from '../domain/files';
import { diffInstalledVersions, namesOnly } from '../domain/installedDiff';
import type { InstalledVersions } from '../domain/provenance';
import { reresolutionStatus, reresolveKey, reresolveStudyId, type ReresolutionRecord, type ReresolutionStatus } from '../domain/reresolution';
import type { ArtefactTexts } from '../ecosystems/ecosystem';
import { finalLayers } from '../ecosystems/finalLayers';
import { installedComponents, installedVersionMap } from '../ecosystems/installedComponents';
import { ensureRuntimeImage } from '../infra/images';
import { sharedMachineBudget } from '../infra/machineBudget';
import { removeEarlierAttempts, SANDBOX_LABELS, sandboxIdentity } from '../sandbox';
import type { ExecuteDeps } from './execute';
import { withHeartbeat } from './heartbeat';
import { openProjectSandbox, runProject } from './projectSandbox';

export interface ReresolveInstanceInput {
  instanceId: string;
  /** The day of the re-resolution (UTC, YYYY-MM-DD): the sandbox's role and the stored row's key. */
  on: string;
}

/** What one instance's re-resolution found; `skipped` where the instance did not succeed (no final manifest to re-resolve). */
export type ReresolveInstanceResult = { status: ReresolutionStatus | 'skipped' };

/** The same as Execute's: re-resolution installs and runs as an Execute does. */
export type ReresolveDeps = ExecuteDeps;

export function createReresolveActivities({ db, blobs, docker, settings, log, machine = sharedMachineBudget() }: ReresolveDeps) {
  return {
    /**
     * A successful instance's final project installed and run again in a fresh sandbox as its Execute
     * was (no date: the registries as they are today; no agent), D2 read from it as then, compared
     * with the record's D2 and stored (`reresolutions`, keyed by instance and day, so a retried
     * attempt replaces its own row). An attempt's sandbox is named from the day's re-resolution
     * workflow, the instance and the attempt; a retry removes the earlier attempts' first. Heartbeats
     * on a timer throughout.
     */
    async reresolveInstance(input: ReresolveInstanceInput): Promise<ReresolveInstanceResult> {
      const ctx = Context.current();
      const signal = ctx.cancellationSignal;
      let phase = 'record';
      return withHeartbeat(() => reresolve(ctx.info.attempt), () => ({ phase }));

      async function reresolve(attempt: number): Promise<ReresolveInstanceResult> {
        const row = await findInstanceRow(db, input.instanceId);
        if (!row || row.record.status !== 'success' || row.record.repair_depth === null || row.record.installed === null) return { status: 'skipped' };
        const { input: instance, record } = row;
        const final = (await instanceIterations(db, input.instanceId)).find((i) => i.iteration === record.repair_depth);
        if (!final?.filesHash) throw ApplicationFailure.nonRetryable(`${input.instanceId}: the successful iteration ${record.repair_depth} has no stored project`, 'NoFinalProject');
        const files = await blobs.getJson<ProjectFiles>(final.filesHash);
        const then: InstalledVersions = record.installed_versions ?? namesOnly(record.installed ?? []);
        phase = 'image';
        const image = await ensureRuntimeImage(docker, settings, record.language, (line) => log?.(`[image] ${line}`));
        // Owned by the day's re-resolution workflow, which runs while the sandbox may live (`envgap cleanup` keeps it); the role names the instance.
        const owner = reresolveStudyId(record.study, input.on);
        const role = `rr-${input.instanceId.slice(record.study.length + 1)}`;
        await removeEarlierAttempts(docker, { [SANDBOX_LABELS.instance]: owner, [SANDBOX_LABELS.role]: role }, attempt);
        phase = 'machine';
        return machine.with({ cpus: instance.limits.cpus, memoryMb: instance.limits.memory_mb }, signal, async () => {
          phase = 'steps';
          const identity = sandboxIdentity({ instanceId: owner, protocol: 'envgap', role, attempt });
          const session = await openProjectSandbox({ docker, settings, log }, { image, ...identity, limits: instance.limits, signal });
          let r;
          try {
            r = await runProject(session, record.language, files, instance.limits, final.execution?.runSpec);
          } finally {
            await session.close();
          }
          if (signal.aborted) throw signal.reason;
          const installs = r.success || r.failedStep === 'run';
          const now = installs ? installedNow(record.language, r.artefacts as ArtefactTexts, files) : null;
          const diff = now === null ? null : diffInstalledVersions(then, now);
          const stored: ReresolutionRecord = {
            schema: 'envgap.reresolution/v1',
            instance_id: input.instanceId,
            study: record.study,
            agent: record.agent,
            language: record.language,
            task: record.task,
            resolved_on: input.on,
            recorded_at: new Date().toISOString(),
            originally: { recorded_at: record.provenance?.recorded_at ?? null, resolve_as_of: record.provenance?.resolve_as_of?.date ?? null },
            status: reresolutionStatus(installs, diff),
            installs,
            runs: r.success,
            failed_step: r.failedStep,
            error_class: r.errorClass,
            error_hash: r.errorOutput == null ? null : await blobs.put(r.errorOutput),
            log_hash: await blobs.put(r.log),
            installed_then: then,
            installed_now: now,
            diff,
          };
          await saveReresolution(db, reresolveKey(input.instanceId, input.on), stored);
          return { status: stored.status };
        });
      }
    },
  };
}

/** D2 as the instance's record reads it, with versions (null where the artefacts name none). */
function installedNow(language: ReresolutionRecord['language'], texts: ArtefactTexts, files: ProjectFiles): InstalledVersions | null {
  const installed = finalLayers(language, texts, files, { installed: true, traced: false }).installed;
  if (installed === null) return null;
  const versions = installedVersionMap(installedComponents(language, texts, installed) ?? []);
  return Object.fromEntries([...installed].sort().map((n) => [n, versions[n] ?? null]));
}
