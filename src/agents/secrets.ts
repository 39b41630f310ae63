import { isBinaryContent, type ProjectFiles } from '../domain/files';
import { isPresetSpec } from '../domain/agentSpec';
import { PRESETS } from './presets';
import type { AgentSpec } from './spec';

/** A secret value of the worker's environment that an agent is given, and the variable it comes from. */
export interface KnownSecret {
  name: string;
  value: string;
}

/**
 * Shorter values are not redacted in what an agent answers: replacing "1" or "main" everywhere would
 * rewrite the project itself. (An openai key of any length is still redacted from its errors.)
 */
export const MIN_SECRET_CHARS = 8;

// Names that say secret, as a word between underscores: OPENAI_API_KEY, GH_TOKEN, AWS_SECRET_ACCESS_KEY, DB_PASSWORD...
const SECRET_NAME = /(^|_)(APIKEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|CREDENTIALS?|AUTH|AUTHORIZATION|BEARER|PAT|COOKIE)(_|$)/;

/**
 * The secret values of `env` that `spec`'s agent sees, longest first (so a secret holding another is
 * redacted whole). openai: the value of api_key_env. cli: each variable named in `env` whose name looks
 * like a secret (a word KEY, TOKEN, SECRET, PASSWORD... in it), or whose value looks like a key (a run of
 * 16 or more letters and digits, both): a plain setting such as a model name or a path is left alone,
 * since redacting it would change the project's files. Values shorter than MIN_SECRET_CHARS never count. replay: none.
 */
export function knownSecrets(spec: AgentSpec, env: NodeJS.ProcessEnv): KnownSecret[] {
  const candidates: KnownSecret[] = [];
  const add = (name: string, keep: (value: string) => boolean) => {
    const value = env[name];
    if (typeof value === 'string' && value.length >= MIN_SECRET_CHARS && keep(value)) candidates.push({ name, value });
  };
  if (spec.kind === 'openai' && spec.api_key_env !== undefined) add(spec.api_key_env, () => true);
  if (spec.kind === 'cli') for (const name of spec.env) add(name, (value) => SECRET_NAME.test(name.toUpperCase()) || looksLikeKey(value));
  if (isPresetSpec(spec)) {
    add(spec.api_key_env ?? PRESETS[spec.kind].vendor.apiKeyEnv, () => true);
    for (const name of spec.env) add(name, (value) => SECRET_NAME.test(name.toUpperCase()) || looksLikeKey(value));
  }
  const unique = new Map(candidates.map((s) => [s.value, s]));
  return [...unique.values()].sort((a, b) => b.value.length - a.value.length);
}

// A key has a long run of letters and digits mixed (sk-ant-api03-AbC12..., ghp_0a1B..., AKIA...); a
// model name such as claude-3-5-sonnet-20241022 or a path has none.
function looksLikeKey(value: string): boolean {
  return (value.match(/[A-Za-z0-9]{16,}/g) ?? []).some((run) => /[A-Za-z]/.test(run) && /[0-9]/.test(run));
}

/** `text` with every known secret replaced by `[redacted:NAME]`. */
export function redactSecrets(text: string, secrets: readonly KnownSecret[]): string {
  let out = text;
  for (const { name, value } of secrets) if (value !== '' && out.includes(value)) out = out.split(value).join(`[redacted:${name}]`);
  return out;
}

/**
 * The files with every known secret redacted from their contents and paths. A binary file's content
 * (base64, see domain/files.ts) is left as it is: replacing text in it would corrupt the file, and a
 * secret's characters in base64 are not the secret's bytes. Only its path is redacted.
 */
export function redactFiles(files: ProjectFiles, secrets: readonly KnownSecret[]): ProjectFiles {
  if (secrets.length === 0) return files;
  return Object.fromEntries(
    Object.entries(files).map(([p, content]) => [redactSecrets(p, secrets), isBinaryContent(content) ? content : redactSecrets(content, secrets)]),
  );
}

/** The same error, its message and stack redacted (a server's error body may quote the key). */
export function redactError<E>(error: E, secrets: readonly KnownSecret[]): E {
  if (error instanceof Error) {
    error.message = redactSecrets(error.message, secrets);
    if (error.stack) error.stack = redactSecrets(error.stack, secrets);
  }
  return error;
}
