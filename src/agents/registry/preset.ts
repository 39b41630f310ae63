import { ClaudeCodeSpec, CodexSpec, GeminiCliSpec, OpencodeSpec, QwenCodeSpec, type PresetKind, type PresetSpec } from '../../domain/agentSpec';
import { PresetAgent } from '../confined/presetAgent';
import { runPresetCall } from '../confined/presetCall';
import { PRESETS } from '../presets';
import type { AgentKind, SpecOf } from './types';

const SPECS = { 'claude-code': ClaudeCodeSpec, codex: CodexSpec, 'gemini-cli': GeminiCliSpec, 'qwen-code': QwenCodeSpec, opencode: OpencodeSpec } as const;

/**
 * A preset (src/agents/presets): a coding-agent CLI envgap installs, configures, runs and reads, always
 * in a sandbox (src/agents/confined). Gen/Repair: a sandbox of its own per call, the project in /work,
 * its session continued across Repair. README: a session in the repository's container (agent mode),
 * its final message the answer. Readiness: that session.
 */
export function presetKind<K extends PresetKind>(kind: K): AgentKind<SpecOf<K>> {
  const title = PRESETS[kind].title;
  const module: AgentKind<PresetSpec> = {
    kind,
    spec: SPECS[kind] as unknown as AgentKind<PresetSpec>['spec'],
    protocols: {
      gap: { create: (spec, env, options) => new PresetAgent(spec, env, options.confinement) },
      readme: {
        activity: 'cliAnswer',
        setupScript: true,
        answer: () => Promise.reject(new Error(`a ${title} agent answers a README in the repository's container (agent mode), never on the worker`)),
      },
      readiness: { session: 'one-command', run: (spec, ctx) => runPresetCall({ ...ctx, spec }) },
    },
  };
  return module as unknown as AgentKind<SpecOf<K>>;
}
