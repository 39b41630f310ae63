/** The coding-agent CLIs envgap knows how to install, configure, run and read (src/agents/presets). Zod-free: workflows read it. */
export const PRESET_KINDS = ['claude-code', 'codex', 'gemini-cli', 'qwen-code', 'opencode'] as const;
export type PresetKind = (typeof PRESET_KINDS)[number];

/** Whether a spec is a preset's (its kind one of PRESET_KINDS). */
export function isPresetKind(kind: string): kind is PresetKind {
  return (PRESET_KINDS as readonly string[]).includes(kind);
}
