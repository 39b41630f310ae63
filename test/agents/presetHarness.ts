import { PresetAgent } from '../../src/agents/confined/presetAgent';
import type { AgentRequest, AgentResponse } from '../../src/agents/types';
import { PRESET_KINDS, type PresetKind, type PresetSpec } from '../../src/domain/agentSpec';
import { connectDocker } from '../../src/infra/docker';
import { loadSettings } from '../../src/infra/settings';
import type { ModelApiDouble } from '../helpers/modelApi/server';

/** The variable the tests' key is in: never a vendor's own name, so nothing of the machine's leaks in. */
export const KEY_ENV = 'ENVGAP_TEST_MODEL_KEY';
export const KEY = 'sk-test-envgap-0123456789abcdefABCDEF';

/** The base URL each preset's SDK takes, on the double. */
export function baseUrlFor(kind: PresetKind, double: ModelApiDouble): string {
  return kind === 'codex' || kind === 'qwen-code' || kind === 'opencode' ? `${double.url}/v1` : double.url;
}

export function presetSpec(kind: PresetKind, double: ModelApiDouble, extra: Partial<PresetSpec> = {}): PresetSpec {
  return { kind, name: kind.replace(/-/g, ''), base_url: baseUrlFor(kind, double), api_key_env: KEY_ENV, timeout_s: 600, memory: true, env: [], ...extra } as PresetSpec;
}

export const confinement = () => ({ docker: connectDocker(), settings: loadSettings() });

export function presetAgent(spec: PresetSpec): PresetAgent {
  return new PresetAgent(spec, { ...process.env, [KEY_ENV]: KEY }, confinement());
}

export function request(instanceId: string, iteration: number, prompt: string, previous: AgentResponse | null): AgentRequest {
  return {
    instanceId,
    agent: 'a',
    task: { id: 'p_01', title: 't', domain: 'd' },
    language: 'python',
    trial: 1,
    iteration,
    prompt,
    previousFiles: previous?.files ?? null,
    error: null,
    session: previous?.session ?? null,
  };
}

export { PRESET_KINDS };
