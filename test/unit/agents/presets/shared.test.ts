import { isCount, jsonLines, keyHandover, lastJsonObject, requireKeyVariable } from '../../../../src/agents/presets/shared';
import type { PresetCall } from '../../../../src/agents/presets/types';

const CALL: PresetCall = {
  model: 'm',
  baseUrl: 'http://127.0.0.1:8123',
  apiKeyEnv: 'OPENAI_API_KEY',
  promptFile: '/run/envgap/prompt.md',
  workspace: '/workspace',
  home: '/root',
  resume: false,
};

describe("what the presets share to read a CLI's output", () => {
  it('finds the JSON object printed last: the whole output, one printed pretty after other lines, or a line of its own', () => {
    const pretty = JSON.stringify({ response: 'hi', stats: { models: {} } }, null, 2);
    expect(lastJsonObject(pretty)).toEqual({ response: 'hi', stats: { models: {} } });
    expect(lastJsonObject(`Loaded cached credentials.\n{"x":1}\n${pretty}\n`)).toEqual({ response: 'hi', stats: { models: {} } });
    expect(lastJsonObject('{"type":"result","n":1}\na warning after it\n')).toEqual({ type: 'result', n: 1 });
    expect(lastJsonObject('{"type":"result","n":1}\n{"type":"result","n":2}\n')).toEqual({ type: 'result', n: 2 });
  });

  it('takes the last one the caller accepts, and null where there is none', () => {
    const accept = (value: Record<string, unknown>) => value.type === 'result';
    expect(lastJsonObject('{"type":"result","n":1}\n{"type":"other"}\n', accept)).toEqual({ type: 'result', n: 1 });
    expect(lastJsonObject('{"type":"other"}', accept)).toBeNull();
    expect(lastJsonObject('')).toBeNull();
    expect(lastJsonObject('not json\n{broken\n')).toBeNull();
    expect(lastJsonObject('[{"a":1}]')).toBeNull();
  });

  it('reads JSON Lines, passing over stray lines', () => {
    expect(jsonLines('{"type":"a"}\nstray\n  {"type":"b"}  \n{broken\n[1]\n\n')).toEqual([{ type: 'a' }, { type: 'b' }]);
  });

  it('counts only finite numbers not below 0', () => {
    expect([0, 12, -1, Number.NaN, Number.POSITIVE_INFINITY, '3', null].map(isCount)).toEqual([true, true, false, false, false, false, false]);
  });
});

describe("what the presets share for the study's key variable", () => {
  it('hands it over to the variable the CLI reads, where that is another one', () => {
    expect(keyHandover('x', 'OPENAI_API_KEY', CALL)).toBe('');
    expect(keyHandover('x', 'OPENAI_API_KEY', { ...CALL, apiKeyEnv: 'STUDY_KEY' })).toBe('OPENAI_API_KEY="$STUDY_KEY" ');
  });

  it('takes only a variable name', () => {
    expect(() => keyHandover('qwen-code', 'OPENAI_API_KEY', { ...CALL, apiKeyEnv: 'KEY; rm -rf /' })).toThrow('qwen-code: "KEY; rm -rf /" is not a variable name');
    expect(() => requireKeyVariable('opencode', { ...CALL, apiKeyEnv: '1KEY' })).toThrow(/not a variable name/);
    expect(() => requireKeyVariable('opencode', { ...CALL, apiKeyEnv: '_KEY_2' })).not.toThrow();
  });
});
