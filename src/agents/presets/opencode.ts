import { shellQuote } from '../../text/shellQuote';
import { isCount, jsonLines, NO_USAGE, requireKeyVariable } from './shared';
import type { AgentPreset, PresetCall, PresetUsage } from './types';

/**
 * opencode (npm opencode-ai: a native binary that its postinstall script copies from the platform's
 * optional dependency, so the install must run scripts), on any OpenAI-compatible Chat Completions
 * endpoint: a custom provider `envgap` in ~/.config/opencode/opencode.json on the npm package
 * @ai-sdk/openai-compatible, which opencode carries inside its binary (nothing is downloaded for it).
 *
 * `opencode run --format json` prints one JSON event a line; each model step ends in a `step_finish`
 * event with that step's tokens (input without cache reads, output, reasoning, cache read and write)
 * and a cost from the model's configured prices (none here: always 0). Every permission is allowed in
 * the config (opencode run has no one to ask); sharing, auto-update and snapshots (undo) are off.
 *
 * Kept off the network: OPENCODE_DISABLE_MODELS_FETCH (models.dev), the default plugins, LSP
 * downloads; and the background `npm install @opencode-ai/plugin` it runs in every config folder,
 * which it skips where node_modules exists and package-lock.json already names the package.
 * `--title` spares the extra model call that would name the session (a call whose tokens the JSON
 * events never report). Its sessions live in an SQLite database under ~/.local/share/opencode;
 * `--continue` resumes the latest one (and starts a new one where there is none).
 */

const PROVIDER = 'envgap';

export const opencode: AgentPreset = {
  kind: 'opencode',
  title: 'opencode',
  install: { registry: 'npm', package: 'opencode-ai', version: '1.18.33', bin: 'opencode' },
  vendor: { model: 'gpt-4.1', apiKeyEnv: 'OPENAI_API_KEY', baseUrl: 'https://api.openai.com/v1' },

  homeFiles(call: PresetCall) {
    requireKeyVariable('opencode', call);
    const model = `${PROVIDER}/${call.model}`;
    const config = {
      autoupdate: false,
      share: 'disabled',
      // Its shadow git store of the workspace, for undo in the TUI: a copy of the repository under
      // ~/.local/share/opencode/snapshot that a run never uses.
      snapshot: false,
      permission: { '*': 'allow' },
      enabled_providers: [PROVIDER],
      model,
      small_model: model,
      provider: {
        [PROVIDER]: {
          npm: '@ai-sdk/openai-compatible',
          name: 'envgap',
          // {env:NAME}: opencode reads the key from the variable when it loads the config.
          options: { baseURL: call.baseUrl, apiKey: `{env:${call.apiKeyEnv}}` },
          models: { [call.model]: { name: call.model } },
        },
      },
    };
    const pluginInstalled = { name: 'opencode-config', lockfileVersion: 3, requires: true, packages: { '': { dependencies: { '@opencode-ai/plugin': opencode.install.version } } } };
    return {
      '.config/opencode/opencode.json': `${JSON.stringify(config, null, 2)}\n`,
      '.config/opencode/package-lock.json': `${JSON.stringify(pluginInstalled, null, 2)}\n`,
      '.config/opencode/node_modules/.envgap': '',
    };
  },

  env() {
    return {
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_SHARE: '1',
    };
  },

  command(call: PresetCall) {
    const resume = call.resume ? ' --continue' : '';
    // --model as well as the config's: a resumed session otherwise keeps the model it was started
    // with, and fails ("Unexpected server error") where the config no longer offers that one. The
    // prompt on stdin (read when it is not a terminal): no argument-length limit, and a prompt that
    // starts with '-' is not taken for an option.
    return `opencode run --format json --title envgap --model ${shellQuote(`${PROVIDER}/${call.model}`)}${resume} < ${shellQuote(call.promptFile)}`;
  },

  usage(stdout: string): PresetUsage {
    let steps = 0;
    let tokensIn = 0;
    let tokensOut = 0;
    for (const event of jsonLines(stdout)) {
      const tokens: StepTokens | undefined = event.type === 'step_finish' ? event.part?.tokens : undefined;
      if (!tokens || !isCount(tokens.input) || !isCount(tokens.output)) continue;
      steps++;
      // input leaves out the cache reads (and writes), which the endpoint counted as prompt tokens.
      tokensIn += tokens.input + count(tokens.cache?.read) + count(tokens.cache?.write);
      // output leaves out the reasoning tokens, which the endpoint counted as completion tokens.
      tokensOut += tokens.output + count(tokens.reasoning);
    }
    return steps === 0 ? NO_USAGE : { tokensIn, tokensOut, costUsd: null };
  },
  finalText: opencodeFinalText,
  costSource: null,
  sessionPaths: ['.local/share/opencode'],
};

/**
 * Its final message: the text parts of the last assistant message that has any (its `text` events
 * by part.messageID), joined as opencode joins a message's text parts; null where it printed none.
 */
export function opencodeFinalText(stdout: string): string | null {
  let message: unknown;
  let texts: string[] = [];
  for (const event of jsonLines(stdout)) {
    const part = event.type === 'text' ? event.part : undefined;
    if (!part || typeof part.text !== 'string' || part.synthetic === true) continue;
    if (part.messageID !== message) texts = [];
    message = part.messageID;
    texts.push(part.text);
  }
  return texts.length > 0 ? texts.join('') : null;
}

type StepTokens = { input?: unknown; output?: unknown; reasoning?: unknown; cache?: { read?: unknown; write?: unknown } };

function count(value: unknown): number {
  return isCount(value) ? value : 0;
}
