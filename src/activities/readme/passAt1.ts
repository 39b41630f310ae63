import { ApplicationFailure, Context } from '@temporalio/activity';
import type Docker from 'dockerode';
import * as path from 'node:path';
import type { BlobStore } from '../../db/blobs';
import type { PassResult } from '../../domain/readme';
import type { RepoSource } from '../../domain/readinessStudy';
import { instanceLimits, PROTOCOL_LIMIT_DEFAULTS, type SandboxLimitsInput } from '../../domain/sandboxLimits';
import { ensureRecipeImage } from '../../infra/images';
import { mirrorConfig } from '../../infra/mirrors';
import type { Settings } from '../../infra/settings';
import { removeEarlierAttempts, SANDBOX_LABELS, type Sandbox } from '../../sandbox';
import { pyrightCommand, readinessRecipe, TOOLS_DIR } from '../../readiness/images';
import { looksLikeNetworkTrouble, missingImportDiagnostics, scriptFailure, tailExcerpt } from '../../readme/passVerdict';
import { INTERPRETER_FILE, indexUrl, PARITY_COMMAND, PARITY_ENV, PASS_DIR, preflightCommand, RUNNER, RUNNER_SCRIPT } from '../../readme/setupRunner';
import { shellQuote } from '../../text/shellQuote';
import { excerpt } from '../../text/excerpt';
import { withHeartbeat } from '../heartbeat';
import { checkOut, oomKilled, RepoSourceError, shell } from '../readiness/containers';
import { openForAttempt, recordWithHits, sandboxDeps, withLimit } from '../readiness/sandboxes';
import { toolsVolume } from '../readiness/toolsVolume';
import { sharedMachineBudget, type MachineBudget } from '../../infra/machineBudget';

export interface PassDeps {
  docker: Docker;
  blobs: BlobStore;
  settings: Settings;
  log?: (line: string) => void;
  /** This machine's CPUs and memory, shared with every other container the process opens (default: the process's own). */
  machine?: MachineBudget;
}

export interface RunSetupScriptInput {
  instanceId: string;
  source: RepoSource | null;
  /** The agent's setup script, as a blob; null where it gave none. */
  scriptHash: string | null;
  /** The script's time limit (EnvBench: 600 s). */
  timeoutS: number;
  memoryMb: number;
  cpus: number;
  /** The study's sandbox limits; absent in inputs from before they were carried. */
  limits?: SandboxLimitsInput;
}

export type RunSetupScriptResult = PassResult & { /** The whole log (script, interpreter, pyright's report), as a blob. */ logHash: string | null };

/** pyright is envgap's measurement, not the agent's work: a limit of its own, outside the script's. */
const PYRIGHT_TIMEOUT_S = 600;
const PREFLIGHT_TIMEOUT_S = 120;

const skipped = (reason: string): RunSetupScriptResult => ({ status: 'skipped', reason, exit_code: null, timed_out: false, missing_imports: null, missing: [], duration_s: null, log_excerpt: null, python: null, logHash: null });

export function createPassActivities({ docker, blobs, settings, log, machine = sharedMachineBudget() }: PassDeps) {
  const deps = sandboxDeps({ docker, settings, log });
  /** Throws (a harness fault, retried) where the package index does not answer from inside the container. */
  async function preflight(container: Sandbox, name: string): Promise<void> {
    const index = indexUrl(settings.pipIndexUrl);
    const r = await shell(container, preflightCommand(index), PREFLIGHT_TIMEOUT_S);
    if (r.exitCode !== 0) throw new Error(`the package index ${index} does not answer from the container ${name} (exit ${r.exitCode}${r.timedOut ? ', timed out' : ''}): ${excerpt(r.output.trim(), 500)}`);
  }

  return {
    /**
     * Pass@1 (EnvBench's execution, which EnConda-Bench points to): the agent's setup script in a fresh
     * container with the repository at /repo, then envgap's pyright over the repository with the
     * interpreter the script left on PATH. Pass: the script exits 0 and pyright reports no
     * reportMissingImports. Harness faults are thrown, never returned as the agent's `fail`.
     */
    async runSetupScript(input: RunSetupScriptInput): Promise<RunSetupScriptResult> {
      if (input.scriptHash === null) return skipped('no setup script');
      if (input.source === null) return skipped('no repository source');
      const { scriptHash, source } = input;
      let phase = 'preparing';
      return withHeartbeat(async () => {
        let script: string;
        try {
          script = await blobs.getText(scriptHash);
        } catch (err) {
          if (/is not in the database/.test((err as Error).message)) throw ApplicationFailure.nonRetryable(`scriptHash: ${(err as Error).message}`, 'ScriptBlobError');
          throw err;
        }
        // The readiness image: the plain Debian machine (Python 3, venv, pip, git, a C/C++ toolchain) the
        // readiness protocol's agents start from, already built and cached on every worker, and with no
        // pyright in it; EnvBench's own image (pyenv, conda, poetry preinstalled) is not envgap's to build.
        const image = await ensureRecipeImage(docker, settings, 'readiness', readinessRecipe, (line) => log?.(`[image readiness] ${line}`));
        const tools = await toolsVolume(docker, settings, log);
        let repo;
        try {
          repo = await checkOut(source);
        } catch (err) {
          if (err instanceof RepoSourceError) throw ApplicationFailure.nonRetryable(`source: ${err.message}`, 'RepoSourceError');
          throw err;
        }
        // Labelled with the instance's id, so `envgap cleanup` removes it once that instance's workflow no
        // longer runs; named per attempt, and an earlier attempt's container goes before waiting for the
        // machine, which it may still hold.
        const owner = { instanceId: input.instanceId, protocol: 'readme' as const, role: 'pass', attempt: Context.current().info.attempt };
        const limits = instanceLimits(input, PROTOCOL_LIMIT_DEFAULTS.readme);
        await removeEarlierAttempts(docker, { [SANDBOX_LABELS.instance]: owner.instanceId, [SANDBOX_LABELS.role]: owner.role }, owner.attempt);
        phase = 'machine';
        try {
          return await machine.with({ cpus: limits.cpus, memoryMb: limits.memory_mb }, Context.current().cancellationSignal, async () => {
            phase = 'container';
            const mirrors = mirrorConfig(settings);
            const container = await openForAttempt(deps, { owner, image, limits, env: [...mirrors.env, ...PARITY_ENV], binds: [...mirrors.binds, `${tools}:${TOOLS_DIR}:ro`] });
            const name = container.name;
            try {
              for (const [file, content] of Object.entries(mirrors.files)) await container.put(path.posix.dirname(file), { [path.posix.basename(file)]: content });
              await container.copyDir(repo.dir, '/repo');
              await container.put(PASS_DIR, { 'setup.sh': script, 'run.sh': RUNNER });
              const parity = await shell(container, PARITY_COMMAND, 60);
              if (parity.exitCode !== 0) throw new Error(`preparing the container ${name} failed (exit ${parity.exitCode}): ${excerpt(parity.output, 500)}`);
              phase = 'preflight';
              await preflight(container, name);

              phase = 'script';
              const run = await shell(container, `bash ${RUNNER_SCRIPT}`, input.timeoutS);
              if (run.exitCode === null && !run.timedOut) throw new Error(`the setup script's exec in ${name} ended without an exit status (the container died?): ${excerpt(run.output, 500)}`);
              const exitCode = run.exitCode ?? 137;
              const seen = await withLimit(container, run, 'the setup script');
              const sandbox = await recordWithHits(container);
              const logParts = [`== setup script: exit ${run.timedOut ? `${exitCode} (timed out after ${input.timeoutS} s)` : exitCode}, ${(run.durationMs / 1000).toFixed(1)} s`, seen.output];
              const failed = scriptFailure({ exitCode, timedOut: run.timedOut, oomKilled: oomKilled(run), output: run.output }, input.timeoutS);
              if (failed) {
                // The index going away mid-script is the harness's fault, not the script's.
                if (!run.timedOut && !seen.limit && looksLikeNetworkTrouble(run.output)) await preflight(container, name);
                const logText = logParts.join('\n');
                const reason = seen.limit ? `${seen.limit}: ${failed}` : failed;
                return { status: 'fail', reason, exit_code: exitCode, timed_out: run.timedOut, missing_imports: null, missing: [], duration_s: run.durationMs / 1000, log_excerpt: tailExcerpt(seen.output), python: null, logHash: await blobs.put(logText), sandbox };
              }

              phase = 'pyright';
              const found = await shell(container, `cat ${INTERPRETER_FILE}`, 30);
              const python = found.exitCode === 0 && found.output.trim().startsWith('/') ? found.output.trim() : '/usr/bin/python3';
              logParts.push(`== interpreter: ${python}${python === found.output.trim() ? ' (on the script\'s PATH at its end)' : ' (the script left none on record: its own EXIT trap?)'}`);
              const command = [...pyrightCommand(python, '/repo'), '--level', 'error'];
              const checked = await shell(container, command.map(shellQuote).join(' '), PYRIGHT_TIMEOUT_S);
              let diagnostics;
              try {
                diagnostics = missingImportDiagnostics(checked.output);
              } catch (err) {
                throw new Error(`pyright in ${name} gave no report (exit ${checked.exitCode}${checked.timedOut ? `, timed out after ${PYRIGHT_TIMEOUT_S} s` : ''}): ${(err as Error).message}: ${excerpt(checked.output, 1000)}`);
              }
              logParts.push(`== pyright --pythonpath ${python}: exit ${checked.exitCode}, ${(checked.durationMs / 1000).toFixed(1)} s, ${diagnostics.count} reportMissingImports`, ...diagnostics.lines, '== pyright report', checked.output);
              const logHash = await blobs.put(logParts.join('\n'));
              const base = { exit_code: 0, timed_out: false, missing_imports: diagnostics.count, missing: diagnostics.names, duration_s: (run.durationMs + checked.durationMs) / 1000, python, logHash, sandbox };
              if (diagnostics.count === 0) return { ...base, status: 'pass', reason: null, log_excerpt: tailExcerpt(run.output) };
              return { ...base, status: 'fail', reason: `${diagnostics.count} missing imports: ${diagnostics.names.join(', ')}`, log_excerpt: excerpt(diagnostics.lines.join('\n'), 2000) };
            } finally {
              await container.close().catch((err: Error) => log?.(`[pass] removing ${name}: ${err.message}`));
            }
          });
        } finally {
          await repo.cleanup();
        }
      }, () => ({ phase }));
    },
  };
}

export type PassActivities = ReturnType<typeof createPassActivities>;
