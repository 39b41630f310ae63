import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CliSpec } from '../domain/agentSpec';
import type { ProjectFiles } from '../domain/files';
import { parseCliUsage, type CliUsage } from './cliUsage';
import { writeProjectDir } from './projectDir';
import { runShell, type RunShellResult } from './runShell';
import { knownSecrets, redactSecrets } from './secrets';
import { shellQuote } from '../text/shellQuote';
import { AgentInputError } from './types';

// A `cli` agent's command template, the environment it is given and the reading of what it printed, for
// every protocol: the gap protocol's Gen/Repair and README's answer run it on this worker (runCliOnHost),
// readiness sessions and README's agent mode inside a container (runCliInContainer).

/** What a command template's placeholders stand for in one run. */
export interface CliPlaces {
  /** {prompt_file}: inserted as is, so it must need no shell quoting. */
  promptFile: string;
  /** {workspace}: inserted as is, likewise. */
  workspace: string;
  /** {prompt}: the text, inserted as one shell-quoted word. */
  prompt: string;
}

/** {prompt_file} and {workspace} go into the command unquoted, so they must need no quoting. */
const SHELL_SAFE_PATH = /^[A-Za-z0-9_./-]+$/;

/** The agent's command line: its template with the placeholders filled in. */
export function cliCommand(spec: CliSpec, at: CliPlaces): string {
  const values: Record<string, string> = { prompt_file: at.promptFile, workspace: at.workspace, prompt: shellQuote(at.prompt) };
  return spec.command.replace(/\{(prompt_file|workspace|prompt)\}/g, (_, name: string) => values[name]!);
}

/**
 * What a named variable that this worker's environment lacks means: `skip`, the agent runs without it
 * (the gap protocol: an agent may find its login under HOME instead); `refuse`, the run can never
 * succeed (an AgentInputError naming the variables).
 */
export type UnsetVariables = 'skip' | 'refuse';

/**
 * The variables a cli agent is given from this worker's environment (never from a study's input):
 * those its spec names in `env` (its key, a base URL, a model), and on the host PATH and HOME too (a
 * container has its own). An agent sees no other variable of the host.
 */
export function cliEnv(spec: CliSpec, hostEnv: NodeJS.ProcessEnv, where: 'host' | 'container', unset: UnsetVariables): Record<string, string> {
  const missing = spec.env.filter((name) => hostEnv[name] === undefined);
  if (unset === 'refuse' && missing.length > 0) throw new AgentInputError(`cli agent "${spec.name}": ${missing.join(', ')} not set in the worker's environment`);
  const env: Record<string, string> = {};
  for (const name of where === 'host' ? ['PATH', 'HOME', ...spec.env] : spec.env) {
    const value = hostEnv[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

export interface CliPrinted {
  /** stdout and stderr together, every known secret redacted. */
  output: string;
  /** stdout alone (the combined output where the two are not kept apart), redacted likewise. */
  stdout: string;
  /** Tokens and cost, where the agent printed them (see cliUsage.ts). */
  usage: CliUsage;
}

/** What the agent printed, with the secret values it was given redacted, and the usage it reported. */
export function readCliOutput(spec: CliSpec, hostEnv: NodeJS.ProcessEnv, printed: { output: string; stdout?: string }): CliPrinted {
  const secrets = knownSecrets(spec, hostEnv);
  const output = redactSecrets(printed.output, secrets);
  const stdout = printed.stdout === undefined ? output : redactSecrets(printed.stdout, secrets);
  return { output, stdout, usage: parseCliUsage(stdout) };
}

export interface HostRunOptions {
  prompt: string;
  /** Where the prompt is written, relative to the workspace (POSIX). */
  promptFile: string;
  /** Files the workspace holds before the command runs (a Repair's previous project). */
  files?: ProjectFiles;
  /** Parent folder of the workspace; os.tmpdir() when absent. */
  workDir?: string;
  timeoutS: number;
  unset: UnsetVariables;
  /** How much of the combined output, and of stdout alone, is kept. */
  outputChars: number;
  stdoutChars: number;
  signal?: AbortSignal;
}

export type HostRun = Omit<RunShellResult, 'output' | 'stdout'> & CliPrinted & { durationMs: number };

/**
 * One run of a cli agent on this worker: a fresh workspace holding `files` and the prompt, the command
 * run there with `sh -c` as the leader of its own process group (runShell.ts), then `read` looks at
 * the workspace; the workspace is removed afterwards, whatever happened.
 */
export async function runCliOnHost<T>(spec: CliSpec, hostEnv: NodeJS.ProcessEnv, options: HostRunOptions, read: (workspace: string, run: HostRun) => Promise<T>): Promise<T> {
  const env = cliEnv(spec, hostEnv, 'host', options.unset);
  const parent = options.workDir ?? os.tmpdir();
  await fs.mkdir(parent, { recursive: true });
  const workspace = await fs.mkdtemp(path.join(parent, 'envgap-cli-'));
  try {
    if (!SHELL_SAFE_PATH.test(workspace)) {
      throw new AgentInputError(`cli agent "${spec.name}": workspace path ${workspace} has characters that need shell quoting; use a plainer work folder`);
    }
    await writeProjectDir(workspace, options.files ?? {});
    const promptFile = path.join(workspace, ...options.promptFile.split('/'));
    await fs.mkdir(path.dirname(promptFile), { recursive: true });
    await fs.writeFile(promptFile, options.prompt);
    const started = Date.now();
    const run = await runShell(cliCommand(spec, { promptFile, workspace, prompt: options.prompt }), {
      cwd: workspace,
      env,
      timeoutMs: options.timeoutS * 1000,
      signal: options.signal,
      outputTailChars: options.outputChars,
      stdoutTailChars: options.stdoutChars,
    });
    return await read(workspace, { ...run, ...readCliOutput(spec, hostEnv, run), durationMs: Date.now() - started });
  } finally {
    await fs.rm(workspace, { recursive: true, force: true });
  }
}

/** A command's run in a container, as the sandbox reports it. */
export interface ContainerRun {
  output: string;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
}

/** Runs `command` in the container with the variables `env` (NAME=value), under the caller's time limit. */
export type ContainerExec = (command: string, env: string[]) => Promise<ContainerRun>;

/**
 * One run of a cli agent inside a container (readiness sessions, README's agent mode): its command with
 * the placeholders at their places there, and only the variables its spec names, all of them set.
 */
export async function runCliInContainer(spec: CliSpec, hostEnv: NodeJS.ProcessEnv, at: CliPlaces, exec: ContainerExec): Promise<Omit<ContainerRun, 'output'> & CliPrinted> {
  const env = cliEnv(spec, hostEnv, 'container', 'refuse');
  const r = await exec(cliCommand(spec, at), Object.entries(env).map(([name, value]) => `${name}=${value}`));
  return { ...r, ...readCliOutput(spec, hostEnv, { output: r.output }) };
}
