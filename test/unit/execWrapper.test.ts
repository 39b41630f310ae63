import { execFileSync } from 'node:child_process';
import { EXEC_SWEEP, EXEC_WRAPPER, takeExecReport } from '../../src/infra/execWrapper';

describe('the exec wrapper', () => {
  it.each([
    ['wrapper', EXEC_WRAPPER],
    ['sweep', EXEC_SWEEP],
  ])('the %s script is valid bash', (_name, script) => {
    expect(() => execFileSync('bash', ['-n', '-c', script])).not.toThrow();
  });

  it('its report is taken out of the output, with the exit and the counters (unreadable ones null)', () => {
    const out = 'hello\n\n<<envgap-exec 0123abcd exit=137 before=0,0,4063232,268435456,0 after=1,-,268435456,max,2>>\n';
    expect(takeExecReport(out, '0123abcd')).toEqual({
      output: 'hello\n',
      exitCode: 137,
      counters: {
        before: { oomKills: 0, memoryFailcnt: 0, memoryPeakBytes: 4063232, memoryLimitBytes: 268435456, pidsLimitHits: 0 },
        after: { oomKills: 1, memoryFailcnt: null, memoryPeakBytes: 268435456, memoryLimitBytes: null, pidsLimitHits: 2 },
      },
    });
  });

  it("another exec's report, or none, leaves the output as it is", () => {
    const out = 'x\n<<envgap-exec ffff exit=0 before=0,0,0,0,0 after=0,0,0,0,0>>\n';
    expect(takeExecReport(out, '0123abcd')).toEqual({ output: out, exitCode: null, counters: null });
  });
});
