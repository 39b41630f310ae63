import { parseCliUsage } from '../../../src/agents/cliUsage';

describe('parseCliUsage', () => {
  it("reads Claude Code's JSON result, counting cache tokens as input", () => {
    const result = {
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: 'Done.',
      total_cost_usd: 0.1234,
      usage: { input_tokens: 10, cache_creation_input_tokens: 1000, cache_read_input_tokens: 5000, output_tokens: 700 },
    };
    expect(parseCliUsage(JSON.stringify(result, null, 2) + '\n')).toEqual({ tokensIn: 6010, tokensOut: 700, costUsd: 0.1234 });
  });

  it('reads the last usage event of JSON Lines output (Codex exec --json)', () => {
    const lines = [
      '{"type":"thread.started"}',
      '{"type":"turn.completed","usage":{"input_tokens":100,"cached_input_tokens":50,"output_tokens":20}}',
      'some trailing text',
    ];
    expect(parseCliUsage(lines.join('\n'))).toEqual({ tokensIn: 100, tokensOut: 20, costUsd: null });
  });

  it('gives nulls when nothing is reported', () => {
    expect(parseCliUsage('wrote main.py\n{"not": "usage"}\n')).toEqual({ tokensIn: null, tokensOut: null, costUsd: null });
    expect(parseCliUsage('')).toEqual({ tokensIn: null, tokensOut: null, costUsd: null });
  });
});
