import { Context } from '@temporalio/activity';
import type Docker from 'dockerode';
import * as path from 'node:path';
import type { BlobStore } from '../db/blobs';
import type { Db } from '../db/connect';
import { recordExecution } from '../db/iterations';
import type { ProjectFiles } from '../domain/files';
import { CACHE_BINDS } from '../infra/caches';
import { ensureRuntimeImage } from '../infra/images';
import { mirrorConfig } from '../infra/mirrors';
import { CA_ENV } from '../infra/recipes';
import { sandboxNetwork } from '../infra/sandboxNetwork';
import { sharedMachineBudget, type MachineBudget } from '../infra/machineBudget';
import type { Settings } from '../infra/settings';
import { CONTAINER_LABELS, ContainerSession, containerName, removeEarlierAttempts } from './containerSession';
import { withHeartbeat } from './heartbeat';
import { RUNNERS } from './runners';
import type { RunnerResult } from './runners/steps';
import { finalLayers } from '../ecosystems/finalLayers';
import type { ArtefactTexts } from '../ecosystems/ecosystem';
import { storeDeclared, storeLayers } from './extract';
import type { DeclaredResult, ExecuteInput, ExecutionOutcome, LayersResult } from './types';

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
    async executeProject(input: ExecuteInput): Promise<ExecutionOutcome> {
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
        await removeEarlierAttempts(docker, { instanceId: input.instanceId, iteration: input.iteration, number: attempt });
        const supersedeMs = Date.now() - superseding;
        phase = 'machine';
        const waitStarted = Date.now();
        return machine.with({ cpus: input.limits.cpus, memoryMb: input.limits.memory_mb }, signal, () => inContainer(attempt, image, started, supersedeMs, { image: imageMs, machine_wait: Date.now() - waitStarted }));
      }

      /** The outcome of a run, its output and artefacts stored, with D2, D3, D3-build (and D1 where asked) brought along. */
      async function outcomeOf(r: RunnerResult, sandbox: NonNullable<ExecutionOutcome['sandbox']>, files: ProjectFiles): Promise<ExecutionOutcome> {
        const put = (s: string | null | undefined) => (s == null ? Promise.resolve(null) : blobs.put(s));
        const names = Object.keys(r.artefacts).sort();
        const [[errorHash, logHash, ...hashes], layers, declared] = await Promise.all([
          Promise.all([put(r.errorOutput), blobs.put(r.log), ...names.map((n) => put(r.artefacts[n]))]),
          layersOfRun(blobs, input, files, r, log),
          input.declare ? declaredOf(blobs, input, files, log) : null,
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
          ...(layers ? { layers } : {}),
          ...(declared ? { declared } : {}),
        };
      }

      /** The execution proper, once the container's CPUs and memory are this instance's. */
      async function inContainer(attempt: number, image: string, started: number, supersedeMs: number, before: { image: number; machine_wait: number }): Promise<ExecutionOutcome> {
        phase = 'container';
        const files = await blobs.getJson<ProjectFiles>(input.filesHash);
        const mirrors = mirrorConfig(settings);
        const network = await sandboxNetwork(docker, settings);
        const session = await ContainerSession.open({
          docker,
          image,
          name: containerName(input.instanceId, input.iteration, attempt),
          limits: input.limits,
          env: [...CA_ENV, ...mirrors.env],
          binds: mirrors.binds,
          caches: CACHE_BINDS,
          network: network.name,
          disk: { stagingRoot: settings.stateDir, log: (line) => log?.(`[disk] ${line}`) },
          labels: {
            [CONTAINER_LABELS.instance]: input.instanceId,
            [CONTAINER_LABELS.iteration]: String(input.iteration),
            [CONTAINER_LABELS.attempt]: String(attempt),
          },
          signal,
        });
        let r: RunnerResult;
        try {
          phase = 'steps';
          for (const [file, content] of Object.entries(mirrors.files)) await session.put(path.posix.dirname(file), { [path.posix.basename(file)]: content });
          r = await RUNNERS[input.language](session, files, input.limits, input.run);
          if (!r.success && (await session.diskLimitHit())) {
            // Whatever the step's own output says (ENOSPC, a crash, killed), the disk limit is why.
            const line = `envgap: the container reached its disk limit of ${session.diskMb} MB (disk_mb; ${session.sandbox.disk}) and writes failed or it was stopped`;
            r.errorClass = 'DiskLimit';
            r.errorOutput = `${r.errorOutput ?? ''}\n${line}`;
            r.log = `${r.log}\n${line}`;
          }
        } catch (err) {
          await session.close();
          throw err;
        }
        // What the run left is stored while Docker removes its container: the removal bounds both.
        const closing = session.close();
        let outcome: ExecutionOutcome;
        try {
          outcome = await outcomeOf(r, { network: network.name, policy: network.policy, disk_mb: session.diskMb, ...session.sandbox }, files);
        } finally {
          await closing;
        }
        outcome.durations = { ...session.timings, container: (session.timings.container ?? 0) + supersedeMs, ...before, total: Date.now() - started };
        // A superseded attempt must not overwrite what the live one stores.
        if (signal.aborted) throw signal.reason;
        // The layers travel to the workflow only; the instance's record keeps them.
        const { layers: _travelling, declared: _travellingToo, ...stored } = outcome;
        await recordExecution(db, input.instanceId, input.iteration, stored);
        return outcome;
      }
    },
  };
}

/**
 * D2 (the install ran) and D3 with D3-build (the run succeeded), from the artefacts still in memory: no
 * extraction activity, no blob read afterwards. Null where the run yields none, or where they cannot be
 * extracted here: the workflow's extraction activity then tries, and reports the fault as before.
 */
async function layersOfRun(blobs: BlobStore, input: ExecuteInput, files: ProjectFiles, run: RunnerResult, log?: (line: string) => void): Promise<LayersResult | null> {
  const want = { installed: run.success || run.failedStep === 'run', traced: run.success };
  if (!want.installed) return null;
  try {
    return await storeLayers(blobs, finalLayers(input.language, run.artefacts as ArtefactTexts, files, want));
  } catch (err) {
    log?.(`[extract] ${input.instanceId}: the layers are left to the extraction activity: ${(err as Error).message}`);
    return null;
  }
}

/** D1 of the project that ran, where the workflow asked for it; null (the workflow's extraction activity then tries) where it cannot be had here. */
async function declaredOf(blobs: BlobStore, input: ExecuteInput, files: ProjectFiles, log?: (line: string) => void): Promise<DeclaredResult | null> {
  try {
    return await storeDeclared(blobs, input.language, files);
  } catch (err) {
    log?.(`[extract] ${input.instanceId}: D1 is left to the extraction activity: ${(err as Error).message}`);
    return null;
  }
}
