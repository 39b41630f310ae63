import { addUsage, callUsage, usageOfCalls, type AgentCallFigures, type AgentUsage, type UsageRecord } from '../../../src/domain/agentUsage';
import { computeMetrics, formatMetricsTable, metricsToCsv } from '../../../src/metrics';
import { parseCsvRecords } from '../../../src/catalog/csv';
import { readinessUsageByAgent, readmeUsageByAgent } from '../../../src/metrics/protocolUsage';
import { usageByAgentLanguage } from '../../../src/metrics/usage';
import type { ReadmeRecord } from '../../../src/domain/readme';
import type { ReadinessRecord } from '../../../src/domain/readiness';
import { record } from './records';

const call = (over: Partial<AgentCallFigures> = {}): AgentCallFigures => ({ tokens_in: null, tokens_out: null, cost_usd: null, duration_ms: 1000, ...over });
const usage = (calls: AgentCallFigures[]): AgentUsage => usageOfCalls(calls)!;
const withUsage = (u: AgentUsage | undefined, over: Parameters<typeof record>[0] = {}): UsageRecord => ({ ...record(over), ...(u ? { agent_usage: u } : {}) });

describe("an instance's usage from its agent calls", () => {
  test('figures add up; the version and whose estimate come along', () => {
    const u = usage([
      call({ tokens_in: 1000, tokens_out: 200, cost_usd: 0.1, duration_ms: 1500, agent_version: 'claude-code 2.1.332', cost_source: "Claude Code's own list-price estimate" }),
      call({ tokens_in: 500, tokens_out: 100, cost_usd: 0.2, duration_ms: 2500, agent_version: 'claude-code 2.1.332', cost_source: "Claude Code's own list-price estimate" }),
    ]);
    expect(u).toEqual({
      calls: 2, tokens_in: 1500, tokens_out: 300, cost_usd: 0.3, cost_calls: 2, agent_time_s: 4,
      agent_versions: ['claude-code 2.1.332'], cost_sources: ["Claude Code's own list-price estimate"],
    });
  });

  test('a figure no call reported stays null, never 0; a partial cost says how many calls it covers', () => {
    expect(usage([call(), call()])).toMatchObject({ calls: 2, tokens_in: null, tokens_out: null, cost_usd: null, cost_calls: 0, agent_versions: [], cost_sources: [] });
    expect(usage([call({ cost_usd: 0.5 }), call()])).toMatchObject({ cost_usd: 0.5, cost_calls: 1, calls: 2 });
    // A reported cost of 0 is a figure (a free model), not an unknown.
    expect(usage([call({ cost_usd: 0 })])).toMatchObject({ cost_usd: 0, cost_calls: 1 });
  });

  test('iterations without an agent call add nothing; none at all is no usage', () => {
    expect(usageOfCalls([null, call({ tokens_in: 3 })])).toMatchObject({ calls: 1, tokens_in: 3 });
    expect(usageOfCalls([])).toBeNull();
    expect(usageOfCalls([null])).toBeNull();
  });

  test('a cost source without a cost is not kept; versions and sources are distinct and sorted', () => {
    expect(callUsage(call({ cost_source: 'x' })).cost_sources).toEqual([]);
    const a = callUsage(call({ agent_version: 'b 2', cost_usd: 1, cost_source: 'z' }));
    const b = callUsage(call({ agent_version: 'a 1', cost_usd: 1, cost_source: 'y' }));
    expect(addUsage(addUsage(a, b), a)).toMatchObject({ agent_versions: ['a 1', 'b 2'], cost_sources: ['y', 'z'] });
  });
});

describe('usage per agent and language', () => {
  const reported = usage([call({ tokens_in: 100, tokens_out: 10, cost_usd: 0.01, agent_version: 'codex-cli 0.5' })]);
  const unreported = usage([call({ duration_ms: 2000 }), call({ duration_ms: 3000 })]);

  test('sums each cell over every trial and status; nulls stay null where no call in the cell reported', () => {
    const rows = usageByAgentLanguage([
      withUsage(reported, { agent: 'codex', language: 'java' }),
      withUsage(reported, { agent: 'codex', language: 'java', trial: 2, status: 'error', error: { kind: 'docker', message: 'gone' } }),
      withUsage(unreported, { agent: 'aider', language: 'python' }),
      withUsage(undefined, { agent: 'aider', language: 'cpp' }),
    ]);
    expect(rows).toEqual([
      { agent: 'aider', language: 'python', instances: 1, calls: 2, tokens_in: null, tokens_out: null, cost_usd: null, cost_calls: 0, agent_time_s: 5, agent_versions: [], cost_sources: [] },
      { agent: 'codex', language: 'java', instances: 2, calls: 2, tokens_in: 200, tokens_out: 20, cost_usd: 0.02, cost_calls: 2, agent_time_s: 2, agent_versions: ['codex-cli 0.5'], cost_sources: [] },
    ]);
  });

  test('records without usage (imported ones) give no rows; the table says so', () => {
    const report = computeMetrics([record(), record({ task: 'p_02' })]);
    expect(report.usage).toEqual([]);
    expect(formatMetricsTable(report)).toContain('Agent usage: no record carries one');
  });

  test('envgap metrics: a table section and usage.csv, unknown cost as - and an empty field', () => {
    const report = computeMetrics([
      withUsage(usage([call({ tokens_in: 12_345, tokens_out: 678, cost_usd: 0.1234, cost_source: 'envgap (list prices)', agent_version: 'claude-code 2.1.332' })]), { agent: 'claude' }),
      withUsage(unreported, { agent: 'aider' }),
    ]);
    const text = formatMetricsTable(report);
    expect(text).toContain('Agent usage per agent and language');
    expect(text).toMatch(/\naider\s+Python\s+1\s+2\s+-\s+-\s+-\s+-\s+5\.0\s+-\n/);
    expect(text).toMatch(/\nclaude\s+Python\s+1\s+1\s+12\.3k\s+678\s+0\.1234\s+envgap \(list prices\)\s+1\.0\s+claude-code 2\.1\.332/);
    const csv = parseCsvRecords(metricsToCsv(report)['usage.csv']);
    expect(csv).toHaveLength(2);
    expect(csv[0]).toMatchObject({ agent: 'aider', language: 'python', calls: '2', tokens_in: '', cost_usd: '', cost_calls: '0', agent_time_s: '5' });
    expect(csv[1]).toMatchObject({ agent: 'claude', tokens_in: '12345', cost_usd: '0.1234', agent_versions: 'claude-code 2.1.332', cost_sources: 'envgap (list prices)' });
  });
});

describe('usage of the README and readiness protocols, per agent', () => {
  test('README: an answer the agent was called for is a call; one it was never called for is none', () => {
    const answer = (over: Partial<NonNullable<ReadmeRecord['answer']>>) =>
      ({ agent: 'a', answer: { status: 'answered', duration_s: 2, tokens_in: null, tokens_out: null, cost_usd: null, ...over } }) as unknown as ReadmeRecord;
    const rows = readmeUsageByAgent([answer({ tokens_in: 10, cost_usd: 0.5 }), answer({ tokens_in: 5 }), answer({ duration_s: null }), { agent: 'b', answer: null } as unknown as ReadmeRecord]);
    expect(rows).toEqual([{ agent: 'a', instances: 2, calls: 2, tokens_in: 15, tokens_out: null, cost_usd: 0.5, cost_calls: 1, agent_time_s: 4, agent_versions: [], cost_sources: [] }]);
  });

  test('readiness: a session is a call, its time the wall time', () => {
    const session = (cost: number | null) => ({ agent: 'r', session: { wall_s: 60, tokens_in: 100, tokens_out: 50, cost_usd: cost } }) as unknown as ReadinessRecord;
    expect(readinessUsageByAgent([session(null), session(null)])).toEqual([
      { agent: 'r', instances: 2, calls: 2, tokens_in: 200, tokens_out: 100, cost_usd: null, cost_calls: 0, agent_time_s: 120, agent_versions: [], cost_sources: [] },
    ]);
  });
});
