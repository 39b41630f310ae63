import type { PresetKind } from '../../domain/agentSpec';
import { claudeCode } from './claudeCode';
import { codex } from './codex';
import { geminiCli } from './geminiCli';
import { opencode } from './opencode';
import { qwenCode } from './qwenCode';
import type { AgentPreset } from './types';

/** The presets by kind (docs/agents.md, "Presets"); keyed by PRESET_KINDS, so one missing here is a compile error. */
export const PRESETS: { readonly [K in PresetKind]: AgentPreset } = {
  'claude-code': claudeCode,
  codex,
  'gemini-cli': geminiCli,
  'qwen-code': qwenCode,
  opencode,
};

export type { AgentPreset, PresetCall, PresetUsage, ReportedFailure } from './types';
