import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { MAX_PROJECT_BYTES } from '../domain/files';
import type { CliSpec } from './spec';
import { parseCliUsage } from './cliUsage';
import { readProjectDir, writeProjectDir } from './projectDir';
import { runShell } from './runShell';
import { knownSecrets, redactError } from './secrets';
import { shellQuote } from './shellQuote';
import { tail } from './tail';
import { AgentAbortedError, AgentInputError, type Agent, type AgentRequest, type AgentResponse } from './types';

/** Folders an agent or its tools make that are not part of the project. */
export const CLI_IGNORED_DIRS = new Set(['.envgap', '.git', 'node_modules', '__pycache__', '.venv']);
export const CLI_PROMPT_FILE = '.envgap/prompt.md';

const TRANSCRIPT_CHARS = 20_000;
const STDOUT_CHARS = 1_000_000;
const ERROR_TAIL_CHARS = 4_000;
/** A project is source code; a bigger file is a download or build output, not something to store. */
export const CLI_MAX_FILE_BYTES = 5 * 1024 * 1024;
/** {prompt_file} and {workspace} go into the command unquoted, so they must need no quoting. */
const SHELL_SAFE_PATH = /^[A-Za-z0-9_./-]+$/;

export interface CliAgentOptions {
  /** Parent folder for the per-call workspaces; os.tmpdir() when absent. */
  workDir?: string;
}

/**
 * A command-line agent (Claude Code, Codex CLI, Gemini CLI, aider, ...) run once per call in a fresh
 * workspace that holds the previous files and the prompt; the project is whatever the workspace holds
 * when the command exits 0.
 */
export class CliAgent implements Agent {
  constructor(
    private readonly spec: CliSpec,
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly options: CliAgentOptions = {},
  ) {}

  get name(): string {
    return this.spec.name;
  }

  async call(req: AgentRequest, signal?: AbortSignal): Promise<AgentResponse> {
    try {
      return await this.run(req, signal);
    } catch (e) {
      // An error quotes the command's output, which may echo a variable passed to it (see secrets.ts).
      throw redactError(e, knownSecrets(this.spec, this.env));
    }
  }

  private async run(req: AgentRequest, signal?: AbortSignal): Promise<AgentResponse> {
    if (signal?.aborted) throw new AgentAbortedError(`cli agent "${this.name}": aborted before start`);
    const started = Date.now();
    const parent = this.options.workDir ?? os.tmpdir();
    await fs.mkdir(parent, { recursive: true });
    const workspace = await fs.mkdtemp(path.join(parent, 'envgap-cli-'));
    try {
      if (!SHELL_SAFE_PATH.test(workspace)) {
        throw new AgentInputError(`cli agent "${this.name}": workspace path ${workspace} has characters that need shell quoting; use a plainer work folder`);
      }
      await writeProjectDir(workspace, req.previousFiles ?? {});
      const promptFile = path.join(workspace, ...CLI_PROMPT_FILE.split('/'));
      await fs.mkdir(path.dirname(promptFile), { recursive: true });
      await fs.writeFile(promptFile, req.prompt);

      const run = await runShell(this.command(promptFile, workspace, req.prompt), {
        cwd: workspace,
        env: this.commandEnv(),
        timeoutMs: this.spec.timeout_s * 1000,
        signal,
        outputTailChars: TRANSCRIPT_CHARS,
        stdoutTailChars: STDOUT_CHARS,
      });
      if (run.aborted) throw new AgentAbortedError(`cli agent "${this.name}": aborted`);
      if (run.timedOut) {
        throw new Error(`cli agent "${this.name}" timed out after ${this.spec.timeout_s} s; output tail:\n${tail(run.output, ERROR_TAIL_CHARS)}`);
      }
      if (run.exitCode !== 0) {
        const how = run.exitCode === null ? `was killed by ${run.signal}` : `exited with code ${run.exitCode}`;
        throw new Error(`cli agent "${this.name}" ${how}; output tail:\n${tail(run.output, ERROR_TAIL_CHARS)}`);
      }

      const { files, unreadable, hardLinked, tooLarge, totalBytes, overLimit } = await readProjectDir(
        workspace,
        (rel, isDir) => isDir && CLI_IGNORED_DIRS.has(path.posix.basename(rel)),
        CLI_MAX_FILE_BYTES,
      );
      const other = unreadable.filter((rel) => !hardLinked.includes(rel) && !overLimit.includes(rel));
      const note =
        (other.length > 0 ? `\n[envgap] left out (larger than 5 MiB, or not a regular file): ${other.join(', ')}\n` : '') +
        (tooLarge
          ? `\n[envgap] left out (the project folder ${workspace} holds ${totalBytes} bytes of files, over the limit of ${MAX_PROJECT_BYTES} bytes (${MAX_PROJECT_BYTES / 1024 / 1024} MiB) per project): ${overLimit.join(', ')}\n`
          : '') +
        (hardLinked.length > 0 ? `\n[envgap] left out (hard links: a file with more than one name is never read): ${hardLinked.join(', ')}\n` : '');
      return {
        files,
        ...parseCliUsage(run.stdout),
        durationMs: Date.now() - started,
        transcript: tail(run.output + note, TRANSCRIPT_CHARS),
      };
    } finally {
      await fs.rm(workspace, { recursive: true, force: true });
    }
  }

  private command(promptFile: string, workspace: string, prompt: string): string {
    const values: Record<string, string> = { prompt_file: promptFile, workspace, prompt: shellQuote(prompt) };
    return this.spec.command.replace(/\{(prompt_file|workspace|prompt)\}/g, (_, name: string) => values[name]);
  }

  /** Only PATH, HOME and the variables the spec names; an agent sees no other secrets of the host. */
  private commandEnv(): Record<string, string> {
    const env: Record<string, string> = {};
    for (const name of ['PATH', 'HOME', ...this.spec.env]) {
      const value = this.env[name];
      if (value !== undefined) env[name] = value;
    }
    return env;
  }
}
