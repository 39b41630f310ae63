import { parseReadmeToolCall, README_TOOLS } from '../../../src/readme/toolLoop';

describe("the README tool loop's calls", () => {
  it('are the readiness tools, with a finish that carries the answer', () => {
    expect(README_TOOLS.map((t) => t.function.name)).toEqual(['bash', 'read_file', 'write_file', 'finish']);
    expect(parseReadmeToolCall('finish', JSON.stringify({ answer: '```json\n{}\n```' }), 60)).toEqual({ call: { name: 'finish', answer: '```json\n{}\n```' } });
  });

  it('check bash, read_file and write_file as the readiness loop does, in /repo', () => {
    expect(parseReadmeToolCall('bash', '{"command":"ls","timeout_s":900}', 120)).toEqual({ call: { name: 'bash', command: 'ls', timeoutS: 120 } });
    expect(parseReadmeToolCall('read_file', '{"path":"README.md"}', 60)).toEqual({ call: { name: 'read_file', path: '/repo/README.md' } });
  });

  it('tell the model what is wrong with a bad call', () => {
    expect(parseReadmeToolCall('finish', '{"answer":""}', 60)).toEqual({ problem: expect.stringContaining('the answer is empty') });
    expect(parseReadmeToolCall('finish', '{"report":{}}', 60)).toEqual({ problem: expect.stringContaining('the arguments of finish') });
    expect(parseReadmeToolCall('launch', '{}', 60)).toEqual({ problem: expect.stringContaining('unknown tool "launch"') });
  });
});
