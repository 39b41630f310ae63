import { recordsTable, usageNotes, whyCell } from '../../../src/cli/records';
import { failureNoteOf } from '../../../src/cli/failureNotes';
import { usageOfJsonl, keepUsage, withUsage } from '../../../src/cli/gapUsage';
import type { IterationRow } from '../../../src/db/iterations';
import { usageOfCalls, type AgentUsage, type UsageRecord } from '../../../src/domain/agentUsage';
import type { ExecutionOutcome } from '../../../src/domain/execution';
import { errorLine, firstLine } from '../../../src/text/oneLine';
import { failed, record } from '../metrics/records';

const claudeUsage: AgentUsage = usageOfCalls([
  { tokens_in: 12_345, tokens_out: 678, cost_usd: 0.1234, duration_ms: 45_200, agent_version: 'claude-code 2.1.332', cost_source: "Claude Code's own list-price estimate" },
])!;

describe('the study table', () => {
  test("an error instance's row shows its kind and the first line of its message", () => {
    const r = record({ status: 'error', error: { kind: 'ApplicationFailure', message: 'docker: no space left on device\n  at createContainer (docker.ts:12)' } });
    expect(whyCell(r, undefined)).toBe('ApplicationFailure: docker: no space left on device');
    const table = recordsTable([r]);
    expect(table.split('\n')[0]).toMatch(/^agent\s+lang\s+task\s+trial\s+status\s+depth\s+first error\s+D1 declared\s+D2 installed\s+D3 traced\s+tokens in\/out\s+cost \$\s+agent s\s+why$/);
    expect(table.split('\n')[2]).toMatch(/^claude\s+python\s+p_01\s+1\s+error\s+0\s+-\s+\(none\)\s+\(none\)\s+\(none\)\s+-\s+-\s+-\s+ApplicationFailure: docker: no space left on device$/);
  });

  test("a failed instance's row shows its last failure's class and telling line, else its first error class", () => {
    const r = failed({ first_error_class: 'MissingDep' });
    expect(whyCell(r, { errorClass: 'Build', line: "error: 'foo.h' file not found" })).toBe("Build: error: 'foo.h' file not found");
    expect(whyCell(r, undefined)).toBe('MissingDep');
    expect(whyCell(record(), undefined)).toBeNull();
    expect(whyCell(record({ status: 'error' }), undefined)).toBe('error (no message recorded)');
    const table = recordsTable([r], new Map([['s1/claude/python/p_01/1', { errorClass: 'Runtime', line: "ModuleNotFoundError: No module named 'markdown'" }]]));
    expect(table).toMatch(/failed\s+-\s+MissingDep\s+\(none\)\s+\(none\)\s+-\s+-\s+-\s+-\s+Runtime: ModuleNotFoundError: No module named 'markdown'$/m);
  });

  test('a row shows what the agent spent; the notes below say its version and whose estimate the cost is', () => {
    const rows: UsageRecord[] = [{ ...record(), agent_usage: claudeUsage }, { ...record({ agent: 'replay', task: 'p_02' }), agent_usage: usageOfCalls([{ tokens_in: null, tokens_out: null, cost_usd: null, duration_ms: 10 }])! }];
    const table = recordsTable(rows);
    expect(table).toMatch(/\nclaude\s+python\s+p_01\s+1\s+success\s+0\s+-\s+\(none\)\s+\(none\)\s+\(none\)\s+12\.3k\/678\s+0\.1234\s+45\.2\s+-$/m);
    expect(table).toMatch(/\nreplay\s+.*\s+-\s+-\s+0\.0\s+-$/m);
    expect(usageNotes(rows)).toEqual(["claude: version claude-code 2.1.332; cost estimated by Claude Code's own list-price estimate"]);
  });
});

describe('one line of an error', () => {
  test("a message's first line, capped", () => {
    expect(firstLine('\n  boom: the worker died\nmore')).toBe('boom: the worker died');
    expect(firstLine('x'.repeat(200))).toHaveLength(90);
    expect(firstLine('x'.repeat(200)).endsWith('…')).toBe(true);
  });

  test("a failed step's telling line: a traceback's last line, a compiler's fatal error, past pointers to logs", () => {
    expect(errorLine('Traceback (most recent call last):\n  File "main.py", line 1, in <module>\n    import markdown\nModuleNotFoundError: No module named \'markdown\'\n')).toBe(
      "ModuleNotFoundError: No module named 'markdown'",
    );
    expect(errorLine('main.cpp:1:10: fatal error: boost/asio.hpp: No such file or directory\n    1 | #include <boost/asio.hpp>\ncompilation terminated.')).toBe(
      'main.cpp:1:10: fatal error: boost/asio.hpp: No such file or directory',
    );
    expect(errorLine('npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/nope\nnpm error A complete log of this run can be found in: /root/.npm/_logs/x.log')).toBe(
      'npm error 404 Not Found - GET https://registry.npmjs.org/nope',
    );
    expect(errorLine('\x1b[31mprogress 10%\rprogress 100%\x1b[0m\nall quiet')).toBe('all quiet');
  });
});

describe('why a failed instance failed, from its iterations', () => {
  const execution = (over: Partial<ExecutionOutcome>): ExecutionOutcome => ({ success: false, failedStep: 'run', errorClass: 'Runtime', errorHash: null, exitCode: 1, artefacts: { log: 'sha256:log' }, durations: {}, ...over });
  const row = (iteration: number, over: Partial<IterationRow>): IterationRow => ({ instanceId: 'i', iteration, filesHash: 'sha256:f', agent: null, execution: null, ...over });
  const blobs: Record<string, string> = { 'sha256:e1': 'Traceback\nImportError: cannot import name x', 'sha256:out': "the agent's answer was unusable in 3 samples; the last one: not JSON\nmore" };
  const read = async (hash: string) => {
    if (!(hash in blobs)) throw new Error('no blob');
    return blobs[hash];
  };

  test("the last iteration that failed: an execution's class and telling line, or an unusable answer", async () => {
    const rows = [row(0, { execution: execution({ errorClass: 'MissingDep', errorHash: 'sha256:e0' }) }), row(1, { execution: execution({ errorHash: 'sha256:e1' }) })];
    expect(await failureNoteOf(rows, read)).toEqual({ errorClass: 'Runtime', line: 'ImportError: cannot import name x' });
    const unusable = row(2, { filesHash: null, agent: { prompt_hash: 'p', transcript_hash: null, tokens_in: null, tokens_out: null, cost_usd: null, duration_ms: 1, output_error_hash: 'sha256:out' } });
    expect(await failureNoteOf([...rows, unusable], read)).toEqual({ errorClass: 'AgentOutput', line: "the agent's answer was unusable in 3 samples; the last one: not JSON" });
  });

  test('an error output missing from the database, or none stored, still gives a line', async () => {
    expect(await failureNoteOf([row(0, { execution: execution({ errorHash: 'sha256:e0' }) })], read)).toEqual({ errorClass: 'Runtime', line: '(its error output sha256:e0 is not in the database)' });
    expect(await failureNoteOf([row(0, { execution: execution({ failedStep: 'install', exitCode: 2 }) })], read)).toEqual({ errorClass: 'Runtime', line: 'failed at install, exit 2' });
    expect(await failureNoteOf([row(0, { execution: execution({ success: true, errorClass: null }) })], read)).toBeNull();
  });
});

describe('usage beside the records', () => {
  test('attached by instance id; read back from exported JSON lines, which the record schema would drop', () => {
    const r = record();
    const [attached] = withUsage([r], new Map([['s1/claude/python/p_01/1', claudeUsage]]));
    expect(attached.agent_usage).toEqual(claudeUsage);
    const text = `${JSON.stringify(attached)}\n\n${JSON.stringify(record({ task: 'p_02' }))}\n{"schema":"envgap.readme/v1","agent_usage":1}\n`;
    expect(usageOfJsonl(text, 'f.jsonl')).toEqual(new Map([['s1/claude/python/p_01/1', claudeUsage]]));
    expect(() => usageOfJsonl(JSON.stringify({ ...r, agent_usage: { calls: -1 } }), 'f.jsonl')).toThrow(/^f\.jsonl line 1: agent_usage: /);
    expect(keepUsage([r, record({ task: 'p_02' })], [attached])).toEqual([attached, record({ task: 'p_02' })]);
  });
});
