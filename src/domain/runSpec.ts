import { z } from 'zod';
import { describeIssues } from '../text/zodIssues';

/**
 * How to run an iteration's program: arguments after the entry, text on its standard input, and
 * variables added to its environment. A replay recording gives it in `.replay.json` (`"run"`); a `cli`
 * or `openai` agent in an optional `envgap.run.json` at the top of its project (docs/prompts.md).
 */
export interface RunSpec {
  args: string[];
  /** null: standard input is empty (/dev/null), as without a spec. */
  stdin: string | null;
  env: Record<string, string>;
}

export const RUN_FILE = 'envgap.run.json';

export const RUN_SPEC_CAPS = { args: 64, argChars: 4096, stdinBytes: 64 * 1024, env: 32, envValueChars: 4096 } as const;

/**
 * Variables the harness sets or relies on in the container (the exec mark, the package mirrors, the
 * CA bundle, the search paths of the tools): a project may not replace them.
 */
const RESERVED_ENV = /^(ENVGAP_.*|PATH|HOME|HOSTNAME|PWD|SHLVL|LD_PRELOAD|LD_LIBRARY_PATH|PIP_.*|NPM_CONFIG_.*|npm_config_.*|MAVEN_.*|SSL_CERT_.*|REQUESTS_CA_BUNDLE|NODE_EXTRA_CA_CERTS|NODE_OPTIONS|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|VIRTUAL_ENV|PYTHONPATH|PYTHONHOME|http_proxy|https_proxy|HTTP_PROXY|HTTPS_PROXY|no_proxy|NO_PROXY)$/;

const NUL = /\u0000/;

const Arg = z
  .string()
  .max(RUN_SPEC_CAPS.argChars, `at most ${RUN_SPEC_CAPS.argChars} characters`)
  .refine((s) => !NUL.test(s), 'must not hold a NUL character');

const EnvName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
  .refine((name) => !RESERVED_ENV.test(name), { message: 'is set by envgap itself (the harness, its mirrors and certificates, the tools\u2019 search paths) and cannot be replaced' });

export const RunSpecSchema = z.strictObject({
  args: z.array(Arg).max(RUN_SPEC_CAPS.args, `at most ${RUN_SPEC_CAPS.args} arguments`).default([]),
  stdin: z
    .string()
    .refine((s) => Buffer.byteLength(s) <= RUN_SPEC_CAPS.stdinBytes, `at most ${RUN_SPEC_CAPS.stdinBytes} bytes`)
    .nullable()
    .default(null),
  env: z
    .record(EnvName, z.string().max(RUN_SPEC_CAPS.envValueChars, `at most ${RUN_SPEC_CAPS.envValueChars} characters`).refine((s) => !NUL.test(s), 'must not hold a NUL character'))
    .refine((env) => Object.keys(env).length <= RUN_SPEC_CAPS.env, `at most ${RUN_SPEC_CAPS.env} variables`)
    .default({}),
});

/** Parses a run spec, or says what is wrong, naming `where` (a file, a field) and the field. */
export function parseRunSpec(value: unknown, where: string): { spec: RunSpec } | { problem: string } {
  const parsed = RunSpecSchema.safeParse(value);
  if (!parsed.success) return { problem: `${where} is not a valid run spec: ${describeIssues(parsed.error).join('; ')}` };
  return { spec: parsed.data };
}

/** Parses the text of an envgap.run.json. */
export function parseRunFile(text: string, where: string): { spec: RunSpec } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { problem: `${where} is not JSON: ${(e as Error).message}` };
  }
  return parseRunSpec(value, where);
}

export function isEmptyRunSpec(spec: RunSpec): boolean {
  return spec.args.length === 0 && spec.stdin === null && Object.keys(spec.env).length === 0;
}

/** One line for the log: what was added to the run. */
export function describeRunSpec(spec: RunSpec): string {
  const parts: string[] = [];
  if (spec.args.length > 0) parts.push(`arguments ${JSON.stringify(spec.args)}`);
  if (spec.stdin !== null) parts.push(`${Buffer.byteLength(spec.stdin)} bytes on standard input`);
  const names = Object.keys(spec.env).sort();
  if (names.length > 0) parts.push(`environment ${names.join(', ')}`);
  return parts.length > 0 ? parts.join('; ') : 'nothing added';
}
