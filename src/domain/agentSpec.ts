import { z } from 'zod';

/** Agent names appear inside instance ids (<study>/<agent>/...), so no "/" and no spaces. */
const AgentName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'agent name must be letters, digits, ".", "_" or "-"');
const EnvVarName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name');

const SECRET_KEY = /(^|_)(api_?key|key|token|secret|password|credentials?|authorization|bearer)$/;

function looksLikeSecret(key: string): boolean {
  return SECRET_KEY.test(key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase());
}

/** strictObject's error for unknown keys, with a pointed message when a key looks like a secret. */
function unknownKeyError(issue: { code?: string; keys?: string[] }): string | undefined {
  if (issue.code !== 'unrecognized_keys' || !issue.keys) return undefined;
  const secrets = issue.keys.filter(looksLikeSecret);
  if (secrets.length > 0) {
    return (
      `key ${secrets.map((k) => `"${k}"`).join(', ')} looks like a secret: an agent spec never holds secrets; ` +
      'put the value in an environment variable and name the variable (api_key_env for openai, env for cli)'
    );
  }
  return `unknown key(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
}

export const ReplaySpec = z.strictObject(
  {
    kind: z.literal('replay'),
    name: AgentName,
    /** A recorded corpus: <path>/<language>/<task>/<trial>/<iteration>/... */
    path: z.string().min(1),
  },
  { error: unknownKeyError },
);

export const CliSpec = z.strictObject(
  {
    kind: z.literal('cli'),
    name: AgentName,
    /** Shell command template with {prompt_file}, {workspace} and {prompt}; see docs/agents.md. */
    command: z.string().min(1),
    timeout_s: z.number().positive().default(1800),
    /** Names of environment variables passed through to the command, besides PATH and HOME. */
    env: z.array(EnvVarName).default([]),
  },
  { error: unknownKeyError },
);

export const OpenAISpec = z.strictObject(
  {
    kind: z.literal('openai'),
    name: AgentName,
    base_url: z.url({ protocol: /^https?$/ }),
    model: z.string().min(1),
    /** The NAME of the environment variable holding the API key; no key means no Authorization header. */
    api_key_env: EnvVarName.optional(),
    temperature: z.number().min(0).max(2).optional(),
    max_tokens: z.number().int().positive().optional(),
    timeout_s: z.number().positive().default(600),
  },
  { error: unknownKeyError },
);

export const AgentSpec = z.discriminatedUnion('kind', [ReplaySpec, CliSpec, OpenAISpec]);
export type AgentSpec = z.infer<typeof AgentSpec>;
export type ReplaySpec = z.infer<typeof ReplaySpec>;
export type CliSpec = z.infer<typeof CliSpec>;
export type OpenAISpec = z.infer<typeof OpenAISpec>;

/** Parses a spec from configuration, with a readable error naming the agent. */
export function parseAgentSpec(input: unknown): AgentSpec {
  const parsed = AgentSpec.safeParse(input);
  if (parsed.success) return parsed.data;
  const name = typeof (input as { name?: unknown })?.name === 'string' ? ` "${(input as { name: string }).name}"` : '';
  throw new Error(`invalid agent spec${name}:\n${z.prettifyError(parsed.error)}`);
}
