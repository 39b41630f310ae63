import type { AgentSpec } from '../domain/agentSpec';
import { fileBytes, isBinaryContent } from '../domain/files';
import { isEmptyRunSpec, parseRunFile, RUN_FILE, type RunSpec } from '../domain/runSpec';
import { AgentOutputError, type AgentResponse } from './types';

/**
 * Whether an agent's envgap.run.json is honoured: always in a recording; for `cli` and `openai` where
 * the spec says `run_file: true` (the study file's default), in which case the agent was told of it.
 * Specs from before the option existed are not: their prompts never mentioned the file.
 */
export function honoursRunFile(spec: AgentSpec): boolean {
  return spec.kind === 'replay' || spec.kind === 'static' || spec.run_file === true;
}

/**
 * How the answer asks its program to be run: the recording's `.replay.json` `run` (the replay agent
 * puts it on the response), else the project's envgap.run.json where honoured; undefined for none.
 * A run file that is not a valid spec makes the answer unusable, like a project that is not JSON.
 */
export function runSpecOf(response: AgentResponse, honourRunFile: boolean): RunSpec | undefined {
  if (response.run) return isEmptyRunSpec(response.run) ? undefined : response.run;
  const text = honourRunFile ? response.files[RUN_FILE] : undefined;
  if (text === undefined) return undefined;
  if (isBinaryContent(text) && !isUtf8(fileBytes(text))) throw new AgentOutputError(`${RUN_FILE} is not UTF-8 text`);
  const parsed = parseRunFile(isBinaryContent(text) ? fileBytes(text).toString('utf8') : text, RUN_FILE);
  if ('problem' in parsed) throw new AgentOutputError(parsed.problem);
  return isEmptyRunSpec(parsed.spec) ? undefined : parsed.spec;
}

function isUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}
