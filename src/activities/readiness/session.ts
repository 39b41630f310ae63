import { ApplicationFailure, Context } from '@temporalio/activity';
import type Docker from 'dockerode';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { BlobStore } from '../../db/blobs';
import type { RepoSource } from '../../domain/readinessStudy';
import { putFiles, removeContainerIfExists } from '../../infra/docker';
import { ensureRecipeImage } from '../../infra/images';
import { sandboxNetwork } from '../../infra/sandboxNetwork';
import type { Settings } from '../../infra/settings';
import { readinessRecipe } from '../../readiness/images';
import { parseSession, REPORT_PATH, type SessionStep } from '../../readiness/session';
import { parseTrackedFiles, trackedFileViolations } from '../../readiness/trackedFiles';
import { excerpt } from '../../text/excerpt';
import { withHeartbeat } from '../heartbeat';
import { ensureAgentImage } from './cliSession';
import { PIP_CACHE_BIND } from '../../infra/caches';
import { mirrorConfig } from '../../infra/mirrors';
import { checkOut, copyIntoContainer, frozenImageRef, isRunning, readinessContainerName, RepoSourceError, shell, startContainer, TRACKED_FILES_AGAIN_COMMAND, TRACKED_FILES_COMMAND } from './containers';

export interface SessionDeps {
  docker: Docker;
  blobs: BlobStore;
  settings: Settings;
  log?: (line: string) => void;
}

/** The container an instance's agent works in (a retried step finds it again by its name, derived from the instance id). */
/** What opening a session's container needs: the readiness protocol's instance, or another protocol's agent session on a repository. */
export interface SessionContainerInput {
  instanceId: string;
  agent: { kind: string; install?: string };
  repo: { source: RepoSource };
  memoryMb: number;
  cpus: number;
}

export interface OpenedSession {
  container: string;
  /** `hash<TAB>path` of the repository's files as copied in (blob). */
  trackedHash: string;
}

export interface StepResult {
  index: number;
  kind: SessionStep['kind'];
  /** The command (or `write PATH`), capped, for the Temporal UI. */
  command: string;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  /** The whole output, as a blob. */
  outputHash: string;
  excerpt: string;
  /** The activity's attempt: above 1, the step ran again after its worker died (the container survived). */
  attempt: number;
}

export function createSessionActivities({ docker, blobs, settings, log }: SessionDeps) {
  return {
    /** Opens the instance's container from the readiness image (or its agent's image) with the repository at /repo. */
    async openRepoContainer(input: SessionContainerInput): Promise<OpenedSession> {
      return withHeartbeat(async () => {
        const name = readinessContainerName(input.instanceId, 'session');
        const readiness = await ensureRecipeImage(docker, settings, 'readiness', readinessRecipe, (line) => log?.(`[image readiness] ${line}`));
        const image = input.agent.install ? await ensureAgentImage(docker, readiness, input.agent.install, (line) => log?.(`[image agent] ${line}`)) : readiness;
        const network = await sandboxNetwork(docker, settings);
        let repo;
        try {
          repo = await checkOut(input.repo.source);
        } catch (err) {
          if (err instanceof RepoSourceError) throw ApplicationFailure.nonRetryable(err.message, 'RepoSourceError');
          throw err;
        }
        try {
          // pip's download cache is shared between sessions (torch is gigabytes); it is a volume, so the
          // frozen environment does not hold it. A configured mirror or wheelhouse applies as in Execute.
          const mirrors = mirrorConfig(settings);
          const container = await startContainer(docker, { name, image, instanceId: input.instanceId, memoryMb: input.memoryMb, cpus: input.cpus, network: network.name, env: mirrors.env, binds: [PIP_CACHE_BIND, ...mirrors.binds] });
          for (const [file, content] of Object.entries(mirrors.files)) await putFiles(container, path.posix.dirname(file), { [path.posix.basename(file)]: content });
          await copyIntoContainer(container, repo.dir);
          const tracked = await shell(container, `${TRACKED_FILES_COMMAND} > /tmp/envgap-tracked.tsv && cat /tmp/envgap-tracked.tsv`, 600);
          if (tracked.exitCode !== 0) throw new Error(`listing the repository's files failed (exit ${tracked.exitCode}): ${excerpt(tracked.output)}`);
          return { container: name, trackedHash: await blobs.put(tracked.output) };
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
      const container = docker.getContainer(input.container);
      const attempt = Context.current().info.attempt;
      if (!(await isRunning(docker, input.container))) throw new Error(`the session's container ${input.container} is gone`);
      return withHeartbeat(async () => {
        const started = Date.now();
        if (step.kind === 'write') {
          await putFiles(container, path.posix.dirname(step.path), { [path.posix.basename(step.path)]: step.content });
          return { index: input.index, kind: step.kind, command: `write ${step.path}`, exitCode: 0, timedOut: false, durationMs: Date.now() - started, outputHash: await blobs.put(''), excerpt: '', attempt };
        }
        const limit = Math.min(step.timeoutS ?? input.timeoutS, input.timeoutS);
        const r = await shell(container, step.command, limit);
        return { index: input.index, kind: step.kind, command: excerpt(step.command, 500), exitCode: r.exitCode, timedOut: r.timedOut, durationMs: r.durationMs, outputHash: await blobs.put(r.output), excerpt: excerpt(r.output, 1000), attempt };
      }, () => ({ step: input.index }));
    },

    /**
     * Ends the session: the recorded report is written where the session did not write one; the
     * report is read; the repository's files are compared with those copied in; the container is
     * committed as the frozen environment (removeSessionContainer removes it while the probes run).
     */
    async closeSession(input: { instanceId: string; container: string; trackedHash: string; reportHash: string | null }): Promise<{ frozenImage: string; report: string | null; violations: { path: string; change: 'modified' | 'deleted' }[] }> {
      return withHeartbeat(async () => {
        const container = docker.getContainer(input.container);
        // One exec for all the session's end: the recorded report where the session left none, the
        // repository's files hashed again, the report printed after a marker.
        const staged = '/tmp/envgap-recorded-report.json';
        if (input.reportHash) await putFiles(container, '/tmp', { 'envgap-recorded-report.json': await blobs.getText(input.reportHash) });
        const marker = '<<envgap-report>>';
        const end = await shell(
          container,
          `{ [ -s ${REPORT_PATH} ] || { [ -f ${staged} ] && mkdir -p ${path.posix.dirname(REPORT_PATH)} && cp ${staged} ${REPORT_PATH}; }; rm -f ${staged}; } 2>/dev/null
${TRACKED_FILES_AGAIN_COMMAND}
[ -f ${REPORT_PATH} ] && printf '%s\\n' '${marker}' && cat ${REPORT_PATH}; true`,
          600,
        );
        const at = end.output.indexOf(`${marker}\n`);
        const after = { output: at < 0 ? end.output : end.output.slice(0, at) };
        const report = at < 0 ? { exitCode: 1, output: '' } : { exitCode: 0, output: end.output.slice(at + marker.length + 1) };
        const frozen = frozenImageRef(input.instanceId);
        await container.commit({ repo: frozen.repo, tag: frozen.tag, pause: true });
        Context.current().heartbeat();
        const violations = trackedFileViolations(parseTrackedFiles(await blobs.getText(input.trackedHash)), parseTrackedFiles(after.output));
        return { frozenImage: frozen.ref, report: report.exitCode === 0 ? excerpt(report.output, 64 * 1024) : null, violations: violations.slice(0, 200) };
      });
    },

    /** Removes the session's container once it is frozen; one already gone is fine. */
    async removeSessionContainer(input: { container: string }): Promise<void> {
      await withHeartbeat(() => removeContainerIfExists(docker, input.container));
    },
  };
}
