import * as path from 'node:path';
import { MAX_PROJECT_BYTES } from '../domain/files';
import type { CliSpec } from './spec';
import { runCliOnHost } from './cliRun';
import { readProjectDir } from './projectDir';
import { knownSecrets, redactError } from './secrets';
import { tail } from './tail';
import type { Confinement } from './confined/agentSandbox';
import { runCliConfined } from './confined/cliAgentCall';
import { AgentAbortedError, type Agent, type AgentRequest, type AgentResponse } from './types';

/** Folders an agent or its tools make that are not part of the project. */
export const CLI_IGNORED_DIRS = new Set(['.envgap', '.git', 'node_modules', '__pycache__', '.venv']);
export const CLI_PROMPT_FILE = '.envgap/prompt.md';

const TRANSCRIPT_CHARS = 20_000;
const STDOUT_CHARS = 1_000_000;
const ERROR_TAIL_CHARS = 4_000;
/** A project is source code; a bigger file is a download or build output, not something to store. */
export const CLI_MAX_FILE_BYTES = 5 * 1024 * 1024;

export interface CliAgentOptions {
  /** Parent folder for the per-call workspaces; os.tmpdir() when absent. */
  workDir?: string;
  /**
   * Docker and the settings: each call runs in a sandbox of its own (src/agents/confined), never on the
   * worker. Workers always give it; without it (unit tests of the template) the call runs on this machine.
   */
  confinement?: Confinement;
}

/**
 * A command-line agent (Claude Code, Codex CLI, Gemini CLI, aider, ...) run once per call in a fresh
 * workspace that holds the previous files and the prompt (cliRun.ts: the template, the environment of
 * only PATH, HOME and the variables the spec names, usage); the project is whatever the workspace holds
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
    if (this.options.confinement) return runCliConfined(this.spec, this.env, this.options.confinement, req, signal);
    const started = Date.now();
    const options = { prompt: req.prompt, promptFile: CLI_PROMPT_FILE, files: req.previousFiles ?? {}, workDir: this.options.workDir, timeoutS: this.spec.timeout_s, unset: 'skip' as const, outputChars: TRANSCRIPT_CHARS, stdoutChars: STDOUT_CHARS, signal };
    return runCliOnHost(this.spec, this.env, options, async (workspace, run) => {
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
      return { files, ...run.usage, durationMs: Date.now() - started, transcript: tail(run.output + note, TRANSCRIPT_CHARS) };
    });
  }
}
