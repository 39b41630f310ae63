import { z } from 'zod';
import { parseToolCall, READINESS_TOOLS, toolArguments, type ToolCall } from '../readiness/toolLoop';
import { README_SYSTEM_PROMPT } from './prompt';

/**
 * The README protocol's tool loop for an `openai` agent with `tool_loop` (agent mode): the readiness
 * loop's bash, read_file and write_file in the repository's container, and a finish that carries the
 * answer, in the format the prompt asks for, as its text.
 */
export const README_TOOLS = [
  ...READINESS_TOOLS.filter((t) => t.function.name !== 'finish'),
  {
    type: 'function',
    function: {
      name: 'finish',
      description: 'End the session with your final response: the whole answer, in the format the task asks for (the detected errors and the setup script).',
      parameters: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false },
    },
  },
] as const;

/** The system message: upstream's, and how the tools work. */
export const README_TOOL_LOOP_SYSTEM = `${README_SYSTEM_PROMPT}
You work in a Linux container holding the repository at /repo, through the tools bash, read_file and write_file, one call at a time or several: read the repository and try commands as you need. When you are done, call finish with your final response as its answer.`;

export type ReadmeToolCall = Exclude<ToolCall, { name: 'finish' }> | { name: 'finish'; answer: string };

const Finish = { finish: z.object({ answer: z.string().min(1, 'the answer is empty') }) };

/** A README tool loop call, checked as the readiness loop checks its own; finish carries the answer. Pure. */
export function parseReadmeToolCall(name: string, argumentsJson: string, maxTimeoutS: number): { call: ReadmeToolCall } | { problem: string } {
  if (name !== 'finish') {
    const parsed = parseToolCall(name, argumentsJson, maxTimeoutS);
    return 'problem' in parsed ? parsed : { call: parsed.call as ReadmeToolCall };
  }
  const checked = toolArguments(Finish, name, argumentsJson);
  if ('problem' in checked) return checked;
  return { call: { name: 'finish', answer: checked.args.answer as string } };
}

/** Which tool loop an activity of the readiness session drives: the readiness task, or a README answer. */
export type ToolLoopTask = 'readiness' | 'readme';
