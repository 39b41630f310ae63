import { isPresetSpec, type PresetSpec } from '../../domain/agentSpec';
import { presetBinds } from '../../agents/confined/presetAgent';
import { sandboxName } from '../../sandbox';
import { ApplicationFailure, Context } from '@temporalio/activity';
import type Docker from 'dockerode';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { BlobStore } from '../../db/blobs';
import type { RepoSource } from '../../domain/readinessStudy';
import { removeContainerIfExists } from '../../infra/docker';
import { ensureRecipeImage } from '../../infra/images';
import type { Settings } from '../../infra/settings';
import { instanceLimits, PROTOCOL_LIMIT_DEFAULTS, type SandboxLimitsInput } from '../../domain/sandboxLimits';
import type { LimitClass, SandboxRecord } from '../../domain/sandboxRecord';
import type { SandboxProtocol } from '../../sandbox';
import { readinessRecipe } from '../../readiness/images';
import { parseSession, REPORT_PATH, type SessionStep, type StepResult } from '../../readiness/session';
import { parseTrackedFiles, trackedFileViolations } from '../../readiness/trackedFiles';
import { excerpt } from '../../text/excerpt';
import { withHeartbeat } from '../heartbeat';
import { ensureAgentImage } from '../../infra/agentImage';
import { mirrorConfig } from '../../infra/mirrors';
import { checkOut, frozenImageRef, RepoSourceError, shell, TRACKED_FILES_AGAIN_COMMAND, TRACKED_FILES_COMMAND } from './containers';
import { openForAttempt, recordWithHits, sandboxDeps, unlessDiskFull, withAttached, withLimit } from './sandboxes';

export interface SessionDeps {
  docker: Docker;
  blobs: BlobStore;
  settings: Settings;
  log?: (line: string) => void;
}

/** What opening a session's container needs: the readiness protocol's instance, or another protocol's agent session on a repository. */
export interface SessionContainerInput {
  instanceId: string;
  /** A cli agent's kind and install, or a preset's whole spec (its tools and model relay are mounted). */
  agent: { kind: string; install?: string } | PresetSpec;
  repo: { source: RepoSource };
  memoryMb: number;
  cpus: number;
  /** The study's sandbox limits; absent in inputs from before they were carried (memoryMb and cpus, every other limit at its default). */
  limits?: SandboxLimitsInput;
  /** Whose session it is (its containers' labels); absent: the readiness protocol's. */
  protocol?: SandboxProtocol;
  /** A readiness instance on a GPU worker: the session gets the worker's GPUs, as upstream's agent container does. */
  gpu?: { run: boolean };
  /** The study lets its instances share GPUs. */
  gpuShare?: boolean;
}

export interface OpenedSession {
  /** The sandbox's name: every later activity of the session re-attaches to it. */
  container: string;
  /** `hash<TAB>path` of the repository's files as copied in (blob). */
  trackedHash: string;
  /** What confines it; absent in histories from before the sandbox. */
  sandbox?: SandboxRecord;
}

/** The image a session starts from: the readiness image, or a cli agent's image made of it by its `install` (cached). */
export async function sessionImage(docker: Docker, settings: Settings, agent: SessionContainerInput['agent'], log?: (line: string) => void): Promise<string> {
  const readiness = await ensureRecipeImage(docker, settings, 'readiness', readinessRecipe, (line) => log?.(`[image readiness] ${line}`));
  const install = 'install' in agent ? agent.install : undefined;
  return install ? ensureAgentImage(docker, readiness, install, (line) => log?.(`[image agent] ${line}`)) : readiness;
}

export function createSessionActivities({ docker, blobs, settings, log }: SessionDeps) {
  const deps = sandboxDeps({ docker, settings, log });
  return {
    /** Opens the instance's container from the readiness image (or its agent's image) with the repository at /repo. */
    async openRepoContainer(input: SessionContainerInput): Promise<OpenedSession> {
      return withHeartbeat(async () => {
        const attempt = Context.current().info.attempt;
        const image = await sessionImage(docker, settings, input.agent, log);
        let repo;
        try {
          repo = await checkOut(input.repo.source);
        } catch (err) {
          if (err instanceof RepoSourceError) throw ApplicationFailure.nonRetryable(err.message, 'RepoSourceError');
          throw err;
        }
        try {
          // A configured mirror or wheelhouse applies as in Execute; pip's cache is the sandbox's own (src/activities/readiness/sandboxes.ts).
          const mirrors = mirrorConfig(settings);
          const protocol = input.protocol ?? 'readiness';
          const owner = { instanceId: input.instanceId, protocol, role: 'session', attempt };
          // A preset's tools (read-only) and its model relay's folder: the only things of the worker it reaches.
          const agentBinds = isPresetSpec(input.agent) ? await presetBinds({ docker, settings, log }, input.agent, sandboxName(owner.instanceId, owner.role, attempt)) : [];
          // The agent checks CUDA and the GPU count as upstream's prompt asks: it sees what C2's probe will see.
          const gpus = input.gpu?.run ? { count: 'all' as const, share: input.gpuShare ?? false } : false;
          const sandbox = await openForAttempt(deps, { owner, image, limits: instanceLimits(input, PROTOCOL_LIMIT_DEFAULTS[protocol]), env: mirrors.env, binds: [...mirrors.binds, ...agentBinds], gpus });
          try {
            for (const [file, content] of Object.entries(mirrors.files)) await sandbox.put(path.posix.dirname(file), { [path.posix.basename(file)]: content });
            await sandbox.copyDir(repo.dir, '/repo');
            const tracked = await shell(sandbox, `${TRACKED_FILES_COMMAND} > /tmp/envgap-tracked.tsv && cat /tmp/envgap-tracked.tsv`, 600);
            if (tracked.exitCode !== 0) throw new Error(`listing the repository's files failed (exit ${tracked.exitCode}): ${excerpt(tracked.output)}`);
            return { container: sandbox.name, trackedHash: await blobs.put(tracked.output), sandbox: sandbox.record };
          } catch (err) {
            await sandbox.close().catch(() => undefined);
            throw err;
          } finally {
            sandbox.release();
          }
        } finally {
          await repo.cleanup();
        }
      });
    },

    /** A recorded session's steps (`<path>/<repo>/<trial>/session.jsonl`) and its report.json, as blobs. */
    async loadReplaySession(input: { path: string; repo: string; trial: number }): Promise<{ stepsHash: string; count: number; reportHash: string | null }> {
      const dir = path.join(input.path, input.repo, String(input.trial));
      const file = path.join(dir, 'session.jsonl');
      let text: string;
      try {
        text = await fs.readFile(file, 'utf8');
      } catch {
        throw ApplicationFailure.nonRetryable(`replay: no recorded session ${file}`, 'AgentInputError');
      }
      let steps: SessionStep[];
      try {
        steps = parseSession(text, file);
      } catch (err) {
        throw ApplicationFailure.nonRetryable((err as Error).message, 'AgentInputError');
      }
      const report = await fs.readFile(path.join(dir, 'report.json'), 'utf8').catch(() => null);
      return { stepsHash: await blobs.putJson(steps), count: steps.length, reportHash: report === null ? null : await blobs.put(report) };
    },

    /** One step of the session in its container: a command (with its time limit) or a file written. */
    async runSessionStep(input: { container: string; stepsHash: string; index: number; timeoutS: number }): Promise<StepResult> {
      const steps = await blobs.getJson<SessionStep[]>(input.stepsHash);
      const step = steps[input.index]!;
      const attempt = Context.current().info.attempt;
      return withHeartbeat(
        () =>
          withAttached(deps, input.container, async (sandbox) => {
            const started = Date.now();
            if (step.kind === 'write') {
              const failed = await sandbox.put(path.posix.dirname(step.path), { [path.posix.basename(step.path)]: step.content }).then(() => null, unlessDiskFull(sandbox));
              const output = failed ? `envgap: writing ${step.path} failed: the container is at its disk limit (${sandbox.diskMb} MiB, disk_mb)\n` : '';
              return { index: input.index, kind: step.kind, command: `write ${step.path}`, exitCode: failed ? 1 : 0, timedOut: false, durationMs: Date.now() - started, outputHash: await blobs.put(output), excerpt: output, attempt, limit: failed ? 'DiskLimit' : null };
            }
            const limit = Math.min(step.timeoutS ?? input.timeoutS, input.timeoutS);
            const r = await shell(sandbox, step.command, limit);
            const seen = await withLimit(sandbox, r, 'the step');
            return { index: input.index, kind: step.kind, command: excerpt(step.command, 500), exitCode: r.exitCode, timedOut: r.timedOut, durationMs: r.durationMs, outputHash: await blobs.put(seen.output), excerpt: excerpt(seen.output, 1000), attempt, limit: seen.limit };
          }),
        () => ({ step: input.index }),
      );
    },

    /**
     * Ends the session: the recorded report is written where the session did not write one; the
     * report is read; the repository's files are compared with those copied in; the container is
     * committed as the frozen environment (removeSessionContainer removes it while the probes run).
     */
    async closeSession(input: { instanceId: string; container: string; trackedHash: string; reportHash: string | null }): Promise<{ frozenImage: string; report: string | null; violations: { path: string; change: 'modified' | 'deleted' }[]; sandbox?: SandboxRecord }> {
      return withHeartbeat(() =>
        withAttached(deps, input.container, async (sandbox) => {
          // One exec for all the session's end: the recorded report where the session left none, the
          // repository's files hashed again, the report printed after a marker.
          const staged = '/tmp/envgap-recorded-report.json';
          // On a disk the agent filled the staged report cannot be written: the session then has none (its agent's doing).
          if (input.reportHash) await sandbox.put('/tmp', { 'envgap-recorded-report.json': await blobs.getText(input.reportHash) }).catch(unlessDiskFull(sandbox));
          const marker = '<<envgap-report>>';
          const end = await shell(
            sandbox,
            `{ [ -s ${REPORT_PATH} ] || { [ -f ${staged} ] && mkdir -p ${path.posix.dirname(REPORT_PATH)} && cp ${staged} ${REPORT_PATH}; }; rm -f ${staged}; } 2>/dev/null
${TRACKED_FILES_AGAIN_COMMAND}
[ -f ${REPORT_PATH} ] && printf '%s\\n' '${marker}' && cat ${REPORT_PATH}; true`,
            600,
          );
          const at = end.output.indexOf(`${marker}\n`);
          const after = { output: at < 0 ? end.output : end.output.slice(0, at) };
          const report = at < 0 ? { exitCode: 1, output: '' } : { exitCode: 0, output: end.output.slice(at + marker.length + 1) };
          const frozen = frozenImageRef(input.instanceId);
          const sandboxRecord = await recordWithHits(sandbox);
          await sandbox.commit(frozen.repo, frozen.tag);
          const violations = trackedFileViolations(parseTrackedFiles(await blobs.getText(input.trackedHash)), parseTrackedFiles(after.output));
          return { frozenImage: frozen.ref, report: report.exitCode === 0 ? excerpt(report.output, 64 * 1024) : null, violations: violations.slice(0, 200), sandbox: sandboxRecord };
        }),
      );
    },

    /** Removes the session's container once it is frozen; one already gone is fine. */
    async removeSessionContainer(input: { container: string }): Promise<void> {
      await withHeartbeat(() => removeContainerIfExists(docker, input.container));
    },
  };
}
