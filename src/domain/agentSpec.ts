import { z } from 'zod';
import { isPresetKind, type PresetKind } from './presetKinds';

export { PRESET_KINDS, type PresetKind } from './presetKinds';

/**
 * Caps on a spec's strings and lists. A study's workflow input holds every agent spec, so these bound
 * its size (test/unit/cli/studyFile.test.ts builds the largest study and measures it).
 */
export const SPEC_CAPS = {
  name: 64,
  command: 2048,
  path: 1024,
  base_url: 2048,
  model: 256,
  env: 32,
  envName: 64,
  timeout_s: 86_400,
  max_tokens: 1_000_000,
} as const;

/** Agent names appear inside instance ids (<study>/<agent>/...), so no "/" and no spaces. */
const AgentName = z
  .string()
  .max(SPEC_CAPS.name, `at most ${SPEC_CAPS.name} characters`)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'agent name must be letters, digits, ".", "_" or "-"');
const EnvVarName = z
  .string()
  .max(SPEC_CAPS.envName, `at most ${SPEC_CAPS.envName} characters`)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name');

const SECRET_KEY = /(^|_)(api_?key|key|token|secret|password|credentials?|authorization|bearer)$/;

function snake(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/-/g, '_').toLowerCase();
}

export function looksLikeSecret(key: string): boolean {
  return SECRET_KEY.test(snake(key));
}

/** Query parameters that carry credentials: the secret keys, plus signatures, sessions and the like. */
const SECRET_QUERY_KEY = /(^|_)(sig|signature|auth|passwd|pwd|pass|session|jwt|client_secret|access_token)$/;

const WHERE_SECRETS_GO = 'an agent spec never holds secrets; put the value in an environment variable and name the variable';

/**
 * Control characters (tab and newline aside, where allowed) and unpaired surrogates: no command, path,
 * URL or model needs them, and JSON would escape each to six bytes.
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;
const CONTROL_OR_TAB_NEWLINE = /[\u0000-\u001f\u007f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** A non-empty, length-capped string of printable text. */
function text(max: number, opts: { multiline?: boolean } = {}) {
  return z
    .string()
    .min(1)
    .max(max, `at most ${max} characters`)
    .refine((s) => !(opts.multiline ? CONTROL : CONTROL_OR_TAB_NEWLINE).test(s) && !LONE_SURROGATE.test(s), {
      message: opts.multiline ? 'must be text without control characters (tab and newline aside)' : 'must be one line of text without control characters',
      abort: true,
    });
}

/**
 * Literal credentials in a command line. Each names what it found, never the value. References to the
 * environment ($NAME, ${NAME}) are what a command should hold instead.
 */
const LITERAL_TOKENS: [RegExp, string][] = [
  [/(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{8,}/, 'an Anthropic key ("sk-ant-…")'],
  [/(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{16,}/, 'an OpenAI-style key ("sk-…")'],
  [/(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{30,}/, 'a Google API key ("AIza…")'],
  [/(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/, 'a GitHub token ("ghp_…")'],
  [/(?<![A-Za-z0-9_-])glpat-[A-Za-z0-9_-]{20,}/, 'a GitLab token ("glpat-…")'],
  [/(?<![A-Za-z0-9_-])xox[abposr]-[A-Za-z0-9-]{10,}/, 'a Slack token ("xox…-")'],
  [/(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{30,}/, 'a Hugging Face token ("hf_…")'],
  [/(?<![A-Z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Z0-9])/, 'an AWS access key ("AKIA…")'],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, 'a private key'],
  [/\bBearer\s+(?!["']?\$)["']?[A-Za-z0-9._~+/-]{8,}/i, 'a bearer token ("Bearer …")'],
  [/\bBasic\s+(?!["']?\$)["']?[A-Za-z0-9+/]{8,}=*/, 'basic-auth credentials ("Basic …")'],
];

/** A value is a reference when it expands an environment variable; only literals are refused. */
function isLiteral(value: string): boolean {
  const v = value.replace(/^["']|["']$/g, '');
  return v.length >= 4 && !v.includes('$') && !/^\d+$/.test(v) && !/^\{[a-z_]+\}$/.test(v) && !/^(bearer|basic|token|digest)$/i.test(v);
}

/** Why a command line holds a literal secret, or null. */
export function literalSecretIn(command: string): string | null {
  for (const [re, what] of LITERAL_TOKENS) if (re.test(command)) return `holds what looks like ${what}`;
  // --api-key VALUE, --token=VALUE, --openai-api-key "VALUE"
  for (const m of command.matchAll(/(?<![A-Za-z0-9_-])(--?[A-Za-z][A-Za-z0-9_-]*)(?=(?:=|\s+)("[^"]*"|'[^']*'|[^\s"']+))/g)) {
    if (looksLikeSecret(m[1]!.replace(/^-+/, '')) && isLiteral(m[2]!)) return `passes a literal value to ${m[1]}`;
  }
  // ANTHROPIC_API_KEY=VALUE (an assignment, an env prefix, a query parameter)
  for (const m of command.matchAll(/(?<![A-Za-z0-9_$-])([A-Za-z_][A-Za-z0-9_]*)=(?=("[^"]*"|'[^']*'|[^\s"'&;|)]+))/g)) {
    if (looksLikeSecret(m[1]!) && isLiteral(m[2]!)) return `assigns a literal value to ${m[1]}`;
  }
  // -H "x-api-key: VALUE"
  for (const m of command.matchAll(/(?<![A-Za-z0-9_-])([A-Za-z][A-Za-z0-9-]*)\s*:(?=\s*("[^"]*"|'[^']*'|[^\s"']+))/g)) {
    if (looksLikeSecret(m[1]!) && isLiteral(m[2]!)) return `sends a literal value in the ${m[1]} header`;
  }
  return null;
}

/** Why a base URL carries a credential, or null. */
export function secretInUrl(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null; // the URL check reports it
  }
  if (u.username || u.password) return 'holds user info (user:password@host)';
  for (const key of new Set(u.searchParams.keys())) {
    if (looksLikeSecret(key) || SECRET_QUERY_KEY.test(snake(key))) return `has a query parameter "${key}" that looks like a secret`;
  }
  for (const [re, what] of LITERAL_TOKENS) if (re.test(url)) return `holds what looks like ${what}`;
  return null;
}

/** strictObject's error for unknown keys, with a pointed message when a key looks like a secret. */
function unknownKeyError(issue: { code?: string; keys?: string[] }): string | undefined {
  if (issue.code !== 'unrecognized_keys' || !issue.keys) return undefined;
  const secrets = issue.keys.filter(looksLikeSecret);
  if (secrets.length > 0) {
    return (
      `key ${secrets.map((k) => `"${k}"`).join(', ')} looks like a secret: ${WHERE_SECRETS_GO} ` +
      '(api_key_env for openai, env for cli)'
    );
  }
  return `unknown key(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
}

/**
 * Whether the agent is told that it may write envgap.run.json (arguments, stdin, env for its run) and
 * the file is honoured; false keeps the paper's prompts unchanged (docs/prompts.md).
 */
// Optional in the type: agent specs in the inputs of studies started before it existed lack it (not honoured there).
const RunFileOption = z.boolean().default(true).optional();

export const ReplaySpec = z.strictObject(
  {
    kind: z.literal('replay'),
    name: AgentName,
    /** A recorded corpus: <path>/<language>/<task>/<trial>/<iteration>/... */
    path: text(SPEC_CAPS.path),
    /**
     * Which recorded trial every trial of the study plays back; the instance's own trial when absent.
     * With `trials: N`, N executions of the same recorded answers on fresh containers: the instrument's
     * noise floor (docs/metrics.md, "Noise floor").
     */
    trial: z.number().int().positive().optional(),
  },
  { error: unknownKeyError },
);

/** The import-scan baseline: a recorded corpus' code with a manifest inferred from its imports (docs/agents.md). */
export const StaticSpec = z.strictObject(
  {
    kind: z.literal('static'),
    name: AgentName,
    /** The recorded corpus whose code it takes: <path>/<language>/<task>/<trial>/<iteration>/... */
    path: text(SPEC_CAPS.path),
    /** Which recorded trial's code; the instance's own trial when absent. */
    trial: z.number().int().positive().optional(),
    /** Which recorded iteration's code; 0 (the agent's Gen) when absent. */
    iteration: z.number().int().nonnegative().optional(),
  },
  { error: unknownKeyError },
);

export const CliSpec = z.strictObject(
  {
    kind: z.literal('cli'),
    name: AgentName,
    /** Shell command template with {prompt_file}, {workspace} and {prompt}; see docs/agents.md. */
    command: text(SPEC_CAPS.command, { multiline: true }).superRefine((command, ctx) => {
      const why = literalSecretIn(command);
      if (why) {
        ctx.addIssue({
          code: 'custom',
          message: `the command ${why}: a command never holds secrets; name an environment variable in env: and reference it as $NAME`,
        });
      }
    }),
    timeout_s: z.number().positive().max(SPEC_CAPS.timeout_s, `at most ${SPEC_CAPS.timeout_s} (24 hours)`).default(1800),
    /** Names of environment variables passed through to the command, besides PATH and HOME. */
    env: z.array(EnvVarName).max(SPEC_CAPS.env, `at most ${SPEC_CAPS.env} variables`).default([]),
    run_file: RunFileOption,
    /**
     * For agents that work inside a container (the readiness protocol): a shell command that installs
     * the agent there (`npm install -g @anthropic-ai/claude-code`), run once per image and cached.
     */
    install: text(SPEC_CAPS.command, { multiline: true })
      .superRefine((command, ctx) => {
        const why = literalSecretIn(command);
        if (why) ctx.addIssue({ code: 'custom', message: `the install command ${why}: it never holds secrets` });
      })
      .optional(),
  },
  { error: unknownKeyError },
);

export const OpenAISpec = z.strictObject(
  {
    kind: z.literal('openai'),
    name: AgentName,
    base_url: z
      .url({ protocol: /^https?$/ })
      .max(SPEC_CAPS.base_url, `at most ${SPEC_CAPS.base_url} characters`)
      .superRefine((url, ctx) => {
        const why = secretInUrl(url);
        if (why) ctx.addIssue({ code: 'custom', message: `base_url ${why}: ${WHERE_SECRETS_GO} (api_key_env)` });
      }),
    model: text(SPEC_CAPS.model),
    /** The NAME of the environment variable holding the API key; no key means no Authorization header. */
    api_key_env: EnvVarName.optional(),
    temperature: z.number().min(0).max(2).optional(),
    max_tokens: z.number().int().positive().max(SPEC_CAPS.max_tokens, `at most ${SPEC_CAPS.max_tokens}`).optional(),
    timeout_s: z.number().positive().max(SPEC_CAPS.timeout_s, `at most ${SPEC_CAPS.timeout_s} (24 hours)`).default(600),
    run_file: RunFileOption,
    /**
     * Gen/Repair as a tool loop in a sandbox: bash, read_file, write_file, finish (src/agents/openaiToolLoop.ts).
     * Default false, applied where it is read: a spec without it parses as before.
     */
    tool_loop: z.boolean().optional(),
    /** With tool_loop: the most model turns of one call (default 50); past them without finish, the call fails (AgentBudget). */
    max_turns: z.number().int().positive().max(10_000, 'at most 10000').optional(),
  },
  { error: unknownKeyError },
);


const BaseUrl = z
  .url({ protocol: /^https?$/ })
  .max(SPEC_CAPS.base_url, `at most ${SPEC_CAPS.base_url} characters`)
  .superRefine((url, ctx) => {
    const why = secretInUrl(url);
    if (why) ctx.addIssue({ code: 'custom', message: `base_url ${why}: ${WHERE_SECRETS_GO} (api_key_env)` });
  });

function presetSpec<K extends PresetKind>(kind: K) {
  return z.strictObject(
    {
      kind: z.literal(kind),
      name: AgentName,
      /** The model; the preset's default where absent. */
      model: text(SPEC_CAPS.model).optional(),
      /** The CLI's version (its package's); the preset's pinned version where absent. */
      version: z.string().max(64).regex(/^[0-9A-Za-z][0-9A-Za-z.+-]*$/, 'must be a package version such as 2.1.332').optional(),
      /**
       * The model endpoint as the vendor's SDK takes it; the vendor's where absent. On 127.0.0.1 or
       * localhost it is the worker host: exactly that port is made reachable from the agent's sandbox.
       */
      base_url: BaseUrl.optional(),
      /** The NAME of the worker's variable holding the key; the preset's usual name where absent. */
      api_key_env: EnvVarName.optional(),
      timeout_s: z.number().positive().max(SPEC_CAPS.timeout_s, `at most ${SPEC_CAPS.timeout_s} (24 hours)`).default(1800),
      /** Repair continues the agent's own session (its state kept with the instance), as the paper's agents did. */
      memory: z.boolean().default(true),
      /** Further variables of the worker given to the agent by name (a proxy, an organisation id). */
      env: z.array(EnvVarName).max(SPEC_CAPS.env, `at most ${SPEC_CAPS.env} variables`).default([]),
      run_file: RunFileOption,
    },
    { error: unknownKeyError },
  );
}

export const ClaudeCodeSpec = presetSpec('claude-code');
export const CodexSpec = presetSpec('codex');
export const GeminiCliSpec = presetSpec('gemini-cli');
export const QwenCodeSpec = presetSpec('qwen-code');
export const OpencodeSpec = presetSpec('opencode');
/** Any preset's spec (they differ only in kind). */
export type PresetSpec = z.infer<ReturnType<typeof presetSpec<PresetKind>>>;

export function isPresetSpec(spec: { kind: string }): spec is PresetSpec {
  return isPresetKind(spec.kind);
}

/** README studies only: answers with the gold errors, their golden answers as fixes (it validates the scorer end to end). */
export const OracleSpec = z.strictObject({ kind: z.literal('oracle'), name: AgentName }, { error: unknownKeyError });

/** The kinds a study's agent may be; which protocols each serves is src/agents/registry's. */
export const AgentSpec = z.discriminatedUnion('kind', [ReplaySpec, CliSpec, OpenAISpec, StaticSpec, ClaudeCodeSpec, CodexSpec, GeminiCliSpec, QwenCodeSpec, OpencodeSpec]);
export type AgentSpec = z.infer<typeof AgentSpec>;
export type OracleSpec = z.infer<typeof OracleSpec>;
export type ReplaySpec = z.infer<typeof ReplaySpec>;
export type StaticSpec = z.infer<typeof StaticSpec>;
export type CliSpec = z.infer<typeof CliSpec>;
export type OpenAISpec = z.infer<typeof OpenAISpec>;

/** Parses a spec from configuration, with a readable error naming the agent. */
export function parseAgentSpec(input: unknown): AgentSpec {
  const parsed = AgentSpec.safeParse(input);
  if (parsed.success) return parsed.data;
  const name = typeof (input as { name?: unknown })?.name === 'string' ? ` "${(input as { name: string }).name}"` : '';
  throw new Error(`invalid agent spec${name}:\n${z.prettifyError(parsed.error)}`);
}
