import { z } from 'zod';
import { type ProjectFiles, validateProjectFiles } from '../domain/files';
import { AgentOutputError, type AgentRequest } from './types';

/** The system message of every openai-agent call; docs/prompts.md quotes it verbatim. */
export const STRUCTURED_OUTPUT_INSTRUCTION = `You are a coding agent. You cannot run commands, read files or ask questions: answer with the complete project as one JSON object of the form {"files": [{"path": "<relative path>", "content": "<full file content>"}]}.
- Paths are relative POSIX paths inside the project: no leading "/", no "..", no backslashes.
- Include every file of the project with its full content: the source code, the dependency manifest and README.md, also the files you did not change.
- Output nothing but that JSON object.`;

/** The user message of a repair: the previous project (in the same JSON shape), then the prompt. */
export const PREVIOUS_FILES_PREAMBLE = 'These are the files of your project, as you last wrote them:';

/** JSON Schema of the answer, sent as the strict `response_format`. */
export const PROJECT_JSON_SCHEMA = {
  type: 'object',
  properties: {
    files: {
      type: 'array',
      items: {
        type: 'object',
        properties: { path: { type: 'string' }, content: { type: 'string' } },
        required: ['path', 'content'],
        additionalProperties: false,
      },
    },
  },
  required: ['files'],
  additionalProperties: false,
} as const;

export const RESPONSE_FORMAT = {
  type: 'json_schema',
  json_schema: { name: 'project', strict: true, schema: PROJECT_JSON_SCHEMA },
} as const;

const ProjectAnswer = z.object({ files: z.array(z.object({ path: z.string(), content: z.string() })) });

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

export function buildMessages(req: AgentRequest): ChatMessage[] {
  const user =
    req.previousFiles === null
      ? req.prompt
      : `${PREVIOUS_FILES_PREAMBLE}\n\n${JSON.stringify(toAnswer(req.previousFiles), null, 2)}\n\n${req.prompt}`;
  return [
    { role: 'system', content: STRUCTURED_OUTPUT_INSTRUCTION },
    { role: 'user', content: user },
  ];
}

function toAnswer(files: ProjectFiles): z.infer<typeof ProjectAnswer> {
  return { files: Object.entries(files).map(([path, content]) => ({ path, content })) };
}

/** The model's message content as a project; anything unusable is an AgentOutputError. */
export function parseProjectAnswer(content: string): ProjectFiles {
  let value: unknown;
  try {
    value = JSON.parse(stripCodeFence(content));
  } catch (e) {
    throw new AgentOutputError(`the model's answer is not JSON (${(e as Error).message}); it starts: ${JSON.stringify(content.slice(0, 200))}`);
  }
  const parsed = ProjectAnswer.safeParse(value);
  if (!parsed.success) {
    throw new AgentOutputError(`the model's answer is not {"files": [{"path", "content"}]}:\n${z.prettifyError(parsed.error)}`);
  }
  const files = new Map<string, string>();
  for (const { path, content: text } of parsed.data.files) {
    if (files.has(path)) throw new AgentOutputError(`the model's answer has "${path}" twice`);
    files.set(path, text);
  }
  try {
    // fromEntries, not assignment, so even a "__proto__" path stays an ordinary key
    return validateProjectFiles(Object.fromEntries(files));
  } catch (e) {
    throw new AgentOutputError(`the model's answer has ${(e as Error).message}`);
  }
}

/** Servers that ignore response_format often wrap the JSON in a Markdown fence anyway. */
function stripCodeFence(text: string): string {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/.exec(text);
  return fenced ? fenced[1] : text;
}
