import { z } from 'zod';
import { describeIssues } from '../text/zodIssues';
import { READINESS_PROMPT } from './prompt';

/** A tool result's cap: past it the output is cut, and the result says so. */
export const TOOL_OUTPUT_CAP = 16 * 1024;
/** A bash call's time limit unless it asks for less. */
export const BASH_DEFAULT_TIMEOUT_S = 600;

/** The tools an `openai` readiness agent is given (OpenAI function-calling format). */
export const READINESS_TOOLS = [
  {
    type: 'function',
    function: {
      name: 'bash',
      description: `Run a bash command in the container, in /repo. Output (stdout and stderr) is capped at ${TOOL_OUTPUT_CAP} bytes; the time limit is timeout_s (default ${BASH_DEFAULT_TIMEOUT_S}).`,
      parameters: { type: 'object', properties: { command: { type: 'string' }, timeout_s: { type: 'number' } }, required: ['command'], additionalProperties: false },
    },
  },
  {
    type: 'function',
    function: {
      name: 'read_file',
      description: `Read a file of the container (absolute, or relative to /repo); at most ${TOOL_OUTPUT_CAP} bytes are returned.`,
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
    },
  },
  {
    type: 'function',
    function: {
      name: 'write_file',
      description: 'Write a file in the container (absolute, or relative to /repo), replacing it.',
      parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'], additionalProperties: false },
    },
  },
  {
    type: 'function',
    function: {
      name: 'finish',
      description: 'End the session with your report (the keys of report.json); it is written to /opt/scimlopsbench/report.json unless you wrote that file yourself.',
      parameters: { type: 'object', properties: { report: { type: 'object' } }, required: ['report'], additionalProperties: false },
    },
  },
] as const;

/** The system message: the readiness task, and how the tools work. */
export const TOOL_LOOP_SYSTEM = `${READINESS_PROMPT}
You work through the tools bash, read_file and write_file, one call at a time or several; call finish with your report when the environment is ready.`;

export type ToolCall =
  | { name: 'bash'; command: string; timeoutS: number }
  | { name: 'read_file'; path: string }
  | { name: 'write_file'; path: string; content: string }
  | { name: 'finish'; report: Record<string, unknown> };

const Args = {
  bash: z.object({ command: z.string().min(1), timeout_s: z.number().positive().optional() }),
  read_file: z.object({ path: z.string().min(1) }),
  write_file: z.object({ path: z.string().min(1), content: z.string() }),
  finish: z.object({ report: z.record(z.string(), z.unknown()) }),
};

/**
 * A tool call's arguments, checked against its tool's schema: the values, or the problem told back to
 * the model (its mistake, not the harness's). Shared by every tool loop envgap drives.
 */
export function toolArguments(tools: Record<string, z.ZodType>, name: string, argumentsJson: string): { args: Record<string, unknown> } | { problem: string } {
  if (!Object.hasOwn(tools, name)) return { problem: `unknown tool "${name}"; the tools are ${Object.keys(tools).join(', ').replace(/, ([^,]*)$/, ' and $1')}` };
  let value: unknown;
  try {
    value = JSON.parse(argumentsJson || '{}');
  } catch (e) {
    return { problem: `the arguments of ${name} are not JSON: ${(e as Error).message}` };
  }
  const parsed = tools[name]!.safeParse(value);
  if (!parsed.success) return { problem: `the arguments of ${name}: ${describeIssues(parsed.error).join('; ')}` };
  return { args: parsed.data as Record<string, unknown> };
}

/** A model's tool call, checked; a bad one is told back to the model (its mistake), not a harness fault. */
export function parseToolCall(name: string, argumentsJson: string, maxTimeoutS: number): { call: ToolCall } | { problem: string } {
  const checked = toolArguments(Args, name, argumentsJson);
  if ('problem' in checked) return checked;
  const a = checked.args;
  if (name === 'bash') return { call: { name, command: a.command as string, timeoutS: Math.min((a.timeout_s as number | undefined) ?? BASH_DEFAULT_TIMEOUT_S, maxTimeoutS) } };
  if (name === 'read_file') return { call: { name, path: resolvePath(a.path as string) } };
  if (name === 'write_file') return { call: { name, path: resolvePath(a.path as string), content: a.content as string } };
  return { call: { name: 'finish', report: a.report as Record<string, unknown> } };
}

const resolvePath = (p: string) => (p.startsWith('/') ? p : `/repo/${p}`);

/** A tool's output for the model, cut at the cap with a line that says so. */
export function capToolOutput(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= TOOL_OUTPUT_CAP) return text;
  return `${bytes.subarray(bytes.length - TOOL_OUTPUT_CAP).toString('utf8')}\n[envgap: output cut to its last ${TOOL_OUTPUT_CAP} of ${bytes.length} bytes]`;
}
