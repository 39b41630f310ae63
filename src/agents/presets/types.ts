/**
 * A preset: one coding-agent CLI researchers run (Claude Code, Codex CLI, Gemini CLI, ...), as envgap
 * installs, configures, runs and reads it inside an agent sandbox (src/agents/sandboxedRun.ts). One
 * module a preset (claudeCode.ts, codex.ts, ...); src/agents/presets/index.ts lists them.
 */

/** Where one call of the agent runs, as seen inside its sandbox. */
export interface PresetCall {
  /** The model the study names, or the preset's default. */
  model: string;
  /**
   * The model endpoint as the vendor's SDK takes it, inside the sandbox: envgap's relay on the
   * sandbox's own loopback (http://127.0.0.1:PORT plus the study's base_url path), which forwards to
   * the study's base_url (or the vendor's) and sees every status it answers.
   */
  baseUrl: string;
  /** The variable that holds the key inside the sandbox (the study's api_key_env). */
  apiKeyEnv: string;
  /** The prompt, as a file (absolute, no shell quoting needed). */
  promptFile: string;
  /** The project or repository: the agent's working folder (absolute, no shell quoting needed). */
  workspace: string;
  /** The agent's own clean HOME (absolute). */
  home: string;
  /** Continue the session this agent had in the previous call (its state under HOME restored). */
  resume: boolean;
}

/** Tokens and cost as the agent itself reported them; null where it reported none. */
export interface PresetUsage {
  tokensIn: number | null;
  tokensOut: number | null;
  costUsd: number | null;
}

/** A failure the agent's output says it had, beyond its exit status. */
export type ReportedFailure = 'AgentContext' | 'AgentRefused' | 'AgentBudget';

export interface AgentPreset {
  /** The kind a study file names (`kind: claude-code`). */
  kind: string;
  /** How people call it ("Claude Code"). */
  title: string;
  /** Its package: installed into the agent's tools with Node.js (npm) or Python (pypi). */
  install: { registry: 'npm'; package: string; version: string; bin: string };
  /** The vendor's defaults, where the study file names none: the model, the key's usual variable, the endpoint. */
  vendor: { model: string; apiKeyEnv: string; baseUrl: string };
  /** Files written under the clean HOME before the call (settings, auth type), by path relative to HOME. */
  homeFiles(call: PresetCall): Record<string, string>;
  /** Variables the CLI needs (base URL, model, telemetry off, IS_SANDBOX...), the key aside (given by its name). */
  env(call: PresetCall): Record<string, string>;
  /** Its non-interactive command line, run by `sh -c` in the workspace with the CLI's bin folder on PATH. */
  command(call: PresetCall): string;
  /** Its final message (the answer a README session ends with) from what it printed on stdout, or null. */
  finalText?(stdout: string): string | null;
  /** Tokens and cost from what it printed on stdout. */
  usage(stdout: string): PresetUsage;
  /** Whose estimate a cost is ("the agent's list-price estimate"), or null where it reports none. */
  costSource: string | null;
  /** Folders under HOME (relative) that hold its session, kept across Repair; null where it cannot resume. */
  sessionPaths: string[] | null;
  /** A failure its output reports (a context overflow, a refusal), where the exit status alone does not say. */
  reportedFailure?(output: string): ReportedFailure | null;
}
