import { isPresetSpec } from '../domain/agentSpec';
import { PRESETS } from './presets';

/** The worker variables an agent spec names: its key, and those listed in `env`. */
export function namedVariables(spec: { kind: string; env?: string[]; api_key_env?: string }): string[] {
  const key = isPresetSpec(spec as never) ? (spec.api_key_env ?? PRESETS[(spec as { kind: keyof typeof PRESETS }).kind].vendor.apiKeyEnv) : spec.api_key_env;
  return [...new Set([...(key ? [key] : []), ...(spec.env ?? [])])];
}

/**
 * Why a study cannot start here: each agent naming a variable this environment lacks (its run could
 * never succeed: an agent sees nothing of the worker's HOME, so no login stands in for a key). Empty
 * where every named variable is set.
 */
export function unsetVariables(agents: readonly { kind: string; name: string; env?: string[]; api_key_env?: string }[], env: NodeJS.ProcessEnv): string[] {
  return agents.flatMap((a) => {
    const missing = namedVariables(a).filter((n) => env[n] === undefined);
    return missing.length === 0 ? [] : [`agent "${a.name}" (${a.kind}) names ${missing.join(', ')}, not set in this environment`];
  });
}
