import { ApplicationFailure } from '@temporalio/activity';
import type Docker from 'dockerode';
import type { SetupMeasurement, SetupTracedCommand } from '../../domain/setupPrecision';
import { parseStraceOpenedFiles } from '../../ecosystems/strace';
import type { Settings } from '../../infra/settings';
import { sharedMachineBudget, type MachineBudget } from '../../infra/machineBudget';
import { CUDA_CHECK_SCRIPT } from '../../readiness/probeScripts';
import { listingCommand, parseListing, SETUP_DIR, type EnvironmentListing } from '../../readiness/setupListing';
import { dpkgCandidatePaths, installedByAgent, setupPrecision, usedByTrace } from '../../readiness/setupPrecision';
import type { Sandbox } from '../../sandbox';
import { shellQuote } from '../../text/shellQuote';
import { withHeartbeat } from '../heartbeat';
import { DIST_INDEX_SCRIPT } from '../runners/python';
import { TRACE } from '../runners/steps';
import { shell } from './containers';
import { interpreterEnv, probeRunner, scriptsBind, type InProbe, type ProbeInput } from './probes';
import { sessionImage, type SessionContainerInput } from './session';

export interface SetupProbeDeps {
  docker: Docker;
  settings: Settings;
  log?: (line: string) => void;
  machine?: MachineBudget;
}

export type SetupProbeInput = ProbeInput & {
  python: string | null;
  /** The session's agent: its image (the readiness image, or a cli agent's made by its install) is the base. */
  agent: SessionContainerInput['agent'];
  /** C1's entry, in the image it ran in (the prepare stage's where there is one) with its scripts; null: not traced. */
  entry: { command: string; image: string; scripts?: string } | null;
  /** Trace C2's cuda-check (the repository has a GPU stage). */
  cudaCheck: boolean;
};

/** A command under strace (the gap protocol's TRACE), its trace written to `file`. */
const underStrace = (file: string, command: string) => `${TRACE.map(shellQuote).join(' ')} -o ${file} ${command}`;

/** The files the listing writes, read back ('' where absent). */
async function readListing(c: Sandbox): Promise<EnvironmentListing> {
  const read = async (name: string) => (await c.readText(`${SETUP_DIR}/${name}`)) ?? '';
  return parseListing({ dists: await read('dists.json'), dpkg: await read('dpkg.tsv'), npm: await read('npm.json'), npmRoot: await read('npm-root.txt') });
}

/** Lists an environment in a container: its interpreter (the one that answered, printed last) and its packages. */
async function listEnvironment(c: Sandbox, python: string | null): Promise<{ listing: EnvironmentListing; python: string }> {
  await c.put(SETUP_DIR, { 'dist_index.py': DIST_INDEX_SCRIPT });
  const r = await shell(c, listingCommand(python), 300);
  if (r.exitCode !== 0) throw new Error(`listing the environment failed (exit ${r.exitCode}): ${r.output.slice(-2000)}`);
  return { listing: await readListing(c), python: r.output.trim().split('\n').at(-1) ?? 'python3' };
}

export function createSetupProbeActivities({ docker, settings, log, machine = sharedMachineBudget() }: SetupProbeDeps) {
  const inProbe: InProbe = probeRunner({ docker, settings, log, machine });
  /** The base image's listing, once per image and interpreter for the life of the worker. */
  const bases = new Map<string, Promise<EnvironmentListing>>();

  function baseListing(input: SetupProbeInput, image: string): Promise<EnvironmentListing> {
    const key = `${image}\0${input.python ?? ''}`;
    let known = bases.get(key);
    if (!known) {
      known = inProbe({ ...input, frozenImage: image }, 'setup-base', {}, async (c) => (await listEnvironment(c, input.python)).listing);
      known.catch(() => bases.delete(key));
      bases.set(key, known);
    }
    return known;
  }

  /** Runs a command under strace in the container: its trace, and how it ended. */
  async function traceOf(c: Sandbox, command: string, file: string, timeoutS: number, env: string[]): Promise<{ trace: string; exitCode: number | null; timedOut: boolean }> {
    const r = await shell(c, underStrace(file, command), timeoutS, env);
    return { trace: (await c.readText(file)) ?? '', exitCode: r.exitCode, timedOut: r.timedOut };
  }

  /** A stage's command traced, with what the record says of it. */
  async function tracedStage(c: Sandbox, stage: SetupTracedCommand['stage'], shown: string, command: string, timeoutS: number, env: string[]): Promise<{ trace: string; run: SetupTracedCommand }> {
    const t = await traceOf(c, command, `${SETUP_DIR}/${stage}.trace`, timeoutS, env);
    return { trace: t.trace, run: { stage, command: shown, exit_code: t.exitCode, timed_out: t.timedOut } };
  }

  // C1's environment: no GPUs, the report's interpreter first on PATH.
  const traceEntry = (c: Sandbox, input: SetupProbeInput, command: string) =>
    tracedStage(c, 'c1', command, `bash -c ${shellQuote(command)}`, input.timeoutS, ['CUDA_VISIBLE_DEVICES=', ...interpreterEnv(input.python)]);

  /**
   * The opened paths, each also as its real path: the listing names distributions by their real
   * location, while a traced command may reach them through a link (a Harbor task's /app to /repo).
   */
  async function withRealPaths(c: Sandbox, paths: string[], name: string): Promise<string[]> {
    if (paths.length === 0) return paths;
    await c.put(SETUP_DIR, { [`${name}.paths`]: paths.join('\n') + '\n' });
    const r = await shell(c, `xargs -r -d '\\n' readlink -m -- < ${SETUP_DIR}/${name}.paths > ${SETUP_DIR}/${name}.real`, 300);
    if (r.exitCode !== 0) throw new Error(`resolving the traced paths failed (exit ${r.exitCode}): ${r.output.slice(-2000)}`);
    const real = ((await c.readText(`${SETUP_DIR}/${name}.real`)) ?? '').split('\n').filter((p) => p.startsWith('/'));
    return [...new Set([...paths, ...real])];
  }

  async function requireStrace(c: Sandbox): Promise<void> {
    const r = await shell(c, 'command -v strace', 30);
    if (r.exitCode !== 0) throw ApplicationFailure.nonRetryable('strace is not in the frozen environment: setup precision cannot trace it', 'SetupTraceError');
  }

  return {
    /**
     * Setup precision (docs/readiness.md): the frozen environment's packages against the session's
     * base image (installed), C1's entry and C2's cuda-check run again under strace without GPUs, each
     * opened file mapped to its package as D3 maps it (used).
     */
    async probeSetupPrecision(input: SetupProbeInput): Promise<SetupMeasurement> {
      return withHeartbeat(async () => {
        const baseImage = await sessionImage(docker, settings, input.agent, log);
        const base = await baseListing(input, baseImage);
        const runs: { trace: string; run: SetupTracedCommand }[] = [];
        const entry = input.entry;
        const elsewhere = entry !== null && entry.image !== input.frozenImage;
        // C1's entry in the prepare stage's image, where it ran there; everything else in the frozen one.
        if (elsewhere) {
          const own = { ...input, frozenImage: entry.image, ...(entry.scripts ? { scripts: entry.scripts } : {}) };
          runs.push(await inProbe(own, 'setup-c1', { binds: scriptsBind(own) }, async (c) => (await requireStrace(c), traceEntry(c, input, entry.command))));
        }
        const here = entry && !elsewhere ? { ...input, ...(entry.scripts ? { scripts: entry.scripts } : {}) } : input;
        return inProbe(here, 'setup', { binds: entry && !elsewhere ? scriptsBind(here) : [] }, async (c) => {
          await requireStrace(c);
          const { listing: frozen, python } = await listEnvironment(c, input.python);
          // A bare start of the interpreter: what its .pth hooks open is no distribution's use (as D3 subtracts it).
          const start = await traceOf(c, `${shellQuote(python)} -c pass`, `${SETUP_DIR}/start.trace`, 120, []);
          if (input.cudaCheck) {
            await c.put('/tmp/envgap-c2', { 'cuda_check.py': CUDA_CHECK_SCRIPT });
            const command = `${shellQuote(python)} /tmp/envgap-c2/cuda_check.py`;
            runs.push(await tracedStage(c, 'c2', command, command, input.timeoutS, ['CUDA_VISIBLE_DEVICES=']));
          }
          if (entry && !elsewhere) runs.push(await traceEntry(c, input, entry.command));
          const opened = await withRealPaths(c, [...new Set(runs.flatMap((r) => parseStraceOpenedFiles(r.trace)))], 'opened');
          await c.put(SETUP_DIR, { 'owned-paths.txt': dpkgCandidatePaths(opened).join('\n') + '\n' });
          // Regular files only (a folder belongs to every package with a file in it), each also as its resolved path.
          const owners = await shell(c, `while IFS= read -r p; do [ -f "$p" ] && printf '%s\\n%s\\n' "$p" "$(readlink -f "$p")"; done < ${SETUP_DIR}/owned-paths.txt | sort -u | xargs -r -d '\\n' dpkg -S 2>/dev/null; true`, 300);
          const interpreterStart = await withRealPaths(c, parseStraceOpenedFiles(start.trace), 'start');
          const used = usedByTrace(frozen, { opened, interpreterStart, dpkgOwners: owners.output });
          return setupPrecision({ installed: installedByAgent(base, frozen), used, traced: runs.map((r) => r.run), python, baseImage });
        });
      });
    },
  };
}
