import { ApplicationFailure, Context } from '@temporalio/activity';
import type Docker from 'dockerode';
import type { BlobStore } from '../db/blobs';
import type { Db } from '../db/connect';
import { recordExecution } from '../db/iterations';
import type { ProjectFiles } from '../domain/files';
import { ensureRuntimeImage } from '../infra/images';
import { sharedMachineBudget, type MachineBudget } from '../infra/machineBudget';
import type { Settings } from '../infra/settings';
import { removeEarlierAttempts, SANDBOX_LABELS, sandboxIdentity } from '../sandbox';
import { withHeartbeat } from './heartbeat';
import { openProjectSandbox, runProject } from './projectSandbox';
import type { RunnerResult } from './runners/steps';
import { finalLayers, type FinalLayers } from '../ecosystems/finalLayers';
import { MissingArtefactError, type ArtefactTexts } from '../ecosystems/ecosystem';
import { storeDeclared, storeLayers } from './extract';
import { resolvedRecord } from './record';
import { saveInstanceWithExecution } from '../db/instances';
import { observationsEndingWith } from '../domain/observations';
import { buildInstanceRecord, recordFingerprint } from '../domain/record';
import { installedComponents, installedVersionMap } from '../ecosystems/installedComponents';
import { catalogHash, envgapVersion, imageId, packageIndexes, recipeHashOfTag, temporalCli, toolVersions } from '../infra/provenance';
import { workerIdentity } from '../infra/workerIdentity';
import type { Provenance } from '../domain/provenance';
import { RESOLVED_AS_OF_BY } from '../domain/resolveAsOf';
import type { StoredNames } from '../domain/nameList';
import type { ExecuteInput, ExecutionOutcome, LayersResult } from './types';

export interface ExecuteDeps {
  db: Db;
  blobs: BlobStore;
  docker: Docker;
  settings: Settings;
  log?: (line: string) => void;
  /** This machine's CPUs and memory, shared with every other container the process opens (default: the process's own). */
  machine?: MachineBudget;
}

export function createExecuteActivities({ db, blobs, docker, settings, log, machine = sharedMachineBudget() }: ExecuteDeps) {
  return {
    /**
     * Execute: installs and runs one iteration's project in a fresh container. Heartbeats on a timer
     * throughout; an attempt that was superseded or cancelled stores nothing and reports no outcome.
     */
    async executeProject(input: ExecuteInput, answerStored?: Promise<void>): Promise<ExecutionOutcome> {
      const ctx = Context.current();
      const signal = ctx.cancellationSignal;
      let phase = 'image';
      const machineState = () => (phase === 'machine' ? { machine: machine.state() } : {});
      return withHeartbeat(() => execute(ctx.info.attempt), () => ({ phase, ...machineState() }));

      async function execute(attempt: number): Promise<ExecutionOutcome> {
        const started = Date.now();
        const image = await ensureRuntimeImage(docker, settings, input.language, (line) => log?.(`[image] ${line}`));
        const imageMs = Date.now() - started;
        // A superseded attempt's container goes first: it may hold the machine this attempt waits for.
        const superseding = Date.now();
        await removeEarlierAttempts(docker, { [SANDBOX_LABELS.instance]: input.instanceId, [SANDBOX_LABELS.iteration]: String(input.iteration) }, attempt);
        const supersedeMs = Date.now() - superseding;
        phase = 'machine';
        const waitStarted = Date.now();
        return machine.with({ cpus: input.limits.cpus, memoryMb: input.limits.memory_mb }, signal, () => inContainer(attempt, image, started, supersedeMs, { image: imageMs, machine_wait: Date.now() - waitStarted }));
      }

      /** The outcome of a run, its output and artefacts stored, with D2, D3, D3-build (and D1 where asked) brought along. */
      async function outcomeOf(r: RunnerResult, sandbox: NonNullable<ExecutionOutcome['sandbox']>, files: ProjectFiles): Promise<Omit<ExecutionOutcome, 'provenance'>> {
        const put = (s: string | null | undefined) => (s == null ? Promise.resolve(null) : blobs.put(s));
        const names = Object.keys(r.artefacts).sort();
        const [[errorHash, logHash, ...hashes], brought, declared] = await Promise.all([
          Promise.all([put(r.errorOutput), blobs.put(r.log), ...names.map((n) => put(r.artefacts[n]))]),
          layersOfRun(blobs, input, files, r, log),
          input.declare ? storeDeclared(blobs, input.language, files) : null,
        ]);
        return {
          success: r.success,
          failedStep: r.failedStep,
          errorClass: r.errorClass,
          errorHash,
          exitCode: r.exitCode,
          artefacts: { ...Object.fromEntries(names.map((n, i) => [n, hashes[i]])), log: logHash! },
          durations: {},
          sandbox,
          ...(r.entry ? { entry: r.entry } : {}),
          ...(input.run ? { runSpec: input.run } : {}),
          ...(r.environment ? { environment: r.environment } : {}),
          ...(r.success ? { runKind: r.runKind ?? 'program' } : {}),
          ...(r.errorClass === 'Timeout' && r.timeoutKind ? { timeoutKind: r.timeoutKind } : {}),
          ...(r.coverage ? { coverage: r.coverage } : {}),
          ...(brought ? { layers: brought.layers } : {}),
          ...(brought?.installedVersions ? { installedVersions: brought.installedVersions } : {}),
          ...(declared ? { declared } : {}),
        };
      }

      /** Where and with what this execution ran (docs/record.md, "Provenance"); its time is set when it is stored. */
      async function provenanceOf(tag: string, look: (cmd: string[]) => Promise<string | null>): Promise<Omit<Provenance, 'recorded_at'>> {
        const id = await imageId(docker, tag);
        return {
          image: { tag, id, recipe_hash: recipeHashOfTag(tag) },
          tool_versions: await toolVersions(id, look),
          envgap: envgapVersion(),
          catalog_hash: catalogHash(),
          ...(temporalCli(settings) ? { temporal_cli: temporalCli(settings)! } : {}),
          package_indexes: packageIndexes(settings),
          ...(input.instance?.input.promptEnvironment ? { prompt_environment: input.instance.input.promptEnvironment } : {}),
          ...(input.resolveAsOf ? { resolve_as_of: { date: input.resolveAsOf, pinned_by: RESOLVED_AS_OF_BY[input.language] } } : {}),
          worker: workerIdentity('worker'),
        };
      }

      /** The execution proper, once the container's CPUs and memory are this instance's. */
      async function inContainer(attempt: number, image: string, started: number, supersedeMs: number, before: { image: number; machine_wait: number }): Promise<ExecutionOutcome> {
        phase = 'container';
        const files = await blobs.getJson<ProjectFiles>(input.filesHash);
        const identity = sandboxIdentity({ instanceId: input.instanceId, protocol: 'envgap', role: `i${input.iteration}`, attempt }, { [SANDBOX_LABELS.iteration]: String(input.iteration) });
        // The caches are writable in the install steps only: the runner seals them before the run.
        const session = await openProjectSandbox({ docker, settings, log }, { image, ...identity, limits: input.limits, signal });
        let r: RunnerResult;
        try {
          phase = 'steps';
          // Whatever a failed step's own output says (ENOSPC, a crash, killed), the disk limit is why where it was hit.
          r = await runProject(session, input.language, files, input.limits, input.run, input.resolveAsOf ? { resolveAsOf: input.resolveAsOf } : {});
        } catch (err) {
          await session.close();
          throw err;
        }
        // The image's tools are asked once per image after the steps, so the project's container starts as clean as ever;
        // a look that fails (the container gone, a limit hit) leaves them empty and never fails the execution.
        const provenance = await provenanceOf(image, (cmd) => session.probe(cmd, 30).catch(() => null));
        // What the run left is stored while Docker removes its container: the removal bounds both.
        const closing = session.close();
        let ran: Omit<ExecutionOutcome, 'provenance'>;
        try {
          const { network, policy, disk, caches } = session.record;
          ran = await outcomeOf(r, { network, policy, disk_mb: session.diskMb, disk, caches }, files);
        } finally {
          await closing;
        }
        // A superseded attempt must not overwrite what the live one stores.
        if (signal.aborted) throw signal.reason;
        // Run with an answer still being stored (answerAndExecute): the iteration's row must exist first.
        await answerStored;
        const durations = { ...session.timings, container: (session.timings.container ?? 0) + supersedeMs, ...before, total: Date.now() - started };
        const outcome: ExecutionOutcome = { ...ran, durations, provenance: { ...provenance, recorded_at: new Date().toISOString() } };
        // The layers travel to the workflow only; the instance's record keeps them.
        const { layers: _travelling, declared: _travellingToo, installedVersions: _travellingAlso, ...stored } = outcome;
        const recorded = await storedWithRecord(outcome, stored);
        if (recorded) return { ...outcome, recorded };
        await recordExecution(db, input.instanceId, input.iteration, stored);
        return outcome;
      }

      /**
       * Where this execution ends its instance, the execution stored with the instance's record in one
       * statement: the record built from what the workflow observed before and this outcome, by the
       * steps the workflow applies. Null where it does not end the instance, or where the record cannot
       * be built or stored here: the caller then stores the execution alone (a failure there fails the
       * attempt, as always) and the workflow stores the record, as before.
       */
      async function storedWithRecord(outcome: ExecutionOutcome, stored: ExecutionOutcome): Promise<ExecutionOutcome['recorded'] | null> {
        if (!input.instance) return null;
        const observations = observationsEndingWith(input.instance.observations, input.iteration, input.instance.input.budget, outcome);
        if (!observations) return null;
        const draft = buildInstanceRecord(input.instance.input, observations);
        try {
          await saveInstanceWithExecution(db, input.instance.input, await resolvedRecord(blobs, draft), { iteration: input.iteration, outcome: stored });
          return { fingerprint: recordFingerprint(draft) };
        } catch (err) {
          log?.(`[record] ${input.instanceId}: the record is left to the workflow: ${(err as Error).message}`);
          return null;
        }
      }
    },
  };
}

/**
 * D2 (the install ran) and D3 with D3-build (the run succeeded), from the artefacts still in memory: no
 * extraction afterwards, no blob read. Null where the run yields none. The execution is the one way the
 * workflow gets them: an artefact a layer needs and the run did not record fails the execution (no
 * retry would record it); a fault storing them fails the attempt, which is retried.
 */
async function layersOfRun(blobs: BlobStore, input: ExecuteInput, files: ProjectFiles, run: RunnerResult, log?: (line: string) => void): Promise<{ layers: LayersResult; installedVersions: StoredNames | null } | null> {
  const want = { installed: run.success || run.failedStep === 'run', traced: run.success };
  if (!want.installed) return null;
  const texts = run.artefacts as ArtefactTexts;
  let layers: FinalLayers;
  try {
    layers = finalLayers(input.language, texts, files, want);
  } catch (err) {
    if (err instanceof MissingArtefactError) throw ApplicationFailure.nonRetryable(`the layers cannot be extracted: ${err.message}`, 'MissingArtefact');
    throw err;
  }
  const [stored, installedVersions] = await Promise.all([storeLayers(blobs, layers), storedVersions(blobs, input, texts, layers.installed, log)]);
  return { layers: stored, installedVersions };
}

/** D2 with versions as a blob of its JSON (name -> version), from the artefacts D2 was read from; null where they give none. */
async function storedVersions(blobs: BlobStore, input: ExecuteInput, texts: ArtefactTexts, installed: string[] | null, log?: (line: string) => void): Promise<StoredNames | null> {
  if (installed === null) return null;
  try {
    const components = installedComponents(input.language, texts, installed);
    if (components === null) return null;
    const versions = installedVersionMap(components);
    // A D2 name the artefacts name no version for still appears, as null.
    for (const name of installed) if (!Object.hasOwn(versions, name)) versions[name] = null;
    const sorted = Object.fromEntries(Object.keys(versions).sort().map((k) => [k, versions[k]]));
    return { blob: await blobs.putJson(sorted), count: installed.length };
  } catch (err) {
    log?.(`[extract] ${input.instanceId}: D2 versions not read: ${(err as Error).message}`);
    return null;
  }
}
