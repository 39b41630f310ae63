import { describeIteration, instanceHeader, instanceText } from '../../../src/cli/instanceText';
import type { IterationRow } from '../../../src/db/iterations';
import type { AgentCallMeta } from '../../../src/db/schema';
import { failed, record } from '../metrics/records';

const ID = 's1/claude/python/p_01/1';
const noBlobs = async (hash: string): Promise<string> => {
  throw new Error(`no blob ${hash}`);
};
const meta = (over: Partial<AgentCallMeta> = {}): AgentCallMeta => ({ prompt_hash: 'p', transcript_hash: null, tokens_in: null, tokens_out: null, cost_usd: null, duration_ms: 12_300, ...over });

describe('envgap instance show', () => {
  test('an error instance with no iteration shows its status, the fault and its whole message', async () => {
    const r = record({ status: 'error', first_attempt_success: false, repair_depth: null, error: { kind: 'ModelEndpointError', message: 'the model endpoint answered 529 overloaded\nafter 5 attempts' } });
    expect(await instanceText(ID, r, [], noBlobs, false)).toBe(
      [
        `instance ${ID}`,
        "status: error (a harness fault, not the agent's)",
        'error: ModelEndpointError: the model endpoint answered 529 overloaded',
        '  after 5 attempts',
        'agent: no call recorded',
        'no iteration recorded: the fault came before the first agent call was stored',
        '',
      ].join('\n'),
    );
  });

  test('the outcome in words, and what all calls spent', () => {
    const rows: IterationRow[] = [
      { instanceId: ID, iteration: 0, filesHash: 'sha256:a', agent: meta({ tokens_in: 1000, tokens_out: 100, cost_usd: 0.05, cost_source: "Claude Code's own list-price estimate", agent_version: 'claude-code 2.1.332' }), execution: null },
      { instanceId: ID, iteration: 1, filesHash: 'sha256:b', agent: meta({ tokens_in: 2000, tokens_out: 300, cost_usd: null, agent_version: 'claude-code 2.1.332' }), execution: null },
    ];
    const text = instanceHeader(ID, failed({ first_error_class: 'MissingDep', iterations: 2, manifest_status: 'absent' }), rows);
    expect(text.split('\n')).toEqual([
      `instance ${ID}`,
      'status: failed after 2 iteration(s) (first error MissingDep)',
      'manifest: absent',
      "agent: 2 call(s), tokens in 3,000, tokens out 400, cost $0.0500 from 1 of 2 calls (estimate: Claude Code's own list-price estimate), agent time 24.6 s, version claude-code 2.1.332",
    ]);
    expect(instanceHeader(ID, record(), [])).toContain('status: success at the first attempt');
    expect(instanceHeader(ID, record({ first_attempt_success: false, repair_depth: 2, first_error_class: 'Build' }), [])).toContain('status: success after 2 repair(s) (first error Build)');
    expect(instanceHeader(ID, null, rows)).toContain('status: no record stored yet');
  });

  test('each iteration says what its agent call spent, with unknown figures as not reported', async () => {
    const row: IterationRow = { instanceId: ID, iteration: 0, filesHash: 'sha256:a', agent: meta(), execution: null };
    expect(await describeIteration(row, noBlobs, false)).toBe(
      [
        '== iteration 0 (Gen)',
        'agent call: tokens in not reported, tokens out not reported, cost not reported, agent time 12.3 s, version not reported',
        'answer: files sha256:a',
        'execution: not recorded',
      ].join('\n'),
    );
  });
});

test('the share of its own code the run executed, in the record and per execution', async () => {
  const coverage = { tool: 'v8' as const, unit: 'line' as const, total: 50, executed: 31, share: 0.62, files: 2, files_executed: 1 };
  expect(instanceHeader(ID, record({ coverage }), [])).toContain("coverage: the final run executed 62% of the project's own code (31 of 50 lines, 1 of 2 files; V8)");
  const execution = { success: true, failedStep: null, errorClass: null, errorHash: null, exitCode: 0, artefacts: { log: 'sha256:log' }, durations: {}, coverage: { ...coverage, tool: 'coverage.py' as const, unit: 'statement' as const } };
  const row: IterationRow = { instanceId: ID, iteration: 0, filesHash: 'sha256:a', agent: null, execution };
  expect(await describeIteration(row, noBlobs, false)).toContain("coverage: 62% of the project's own code (31 of 50 statements, 1 of 2 files; coverage.py)");
  // A failed run with coverage still says how it failed, then its coverage.
  const failed = { ...execution, success: false, failedStep: 'run' as const, errorClass: 'MissingDep' as const, exitCode: 1 };
  const text = await describeIteration({ ...row, execution: failed }, noBlobs, false);
  expect(text).toMatch(/outcome: failed at run, class MissingDep, exit 1\ncoverage: 62% /);
});

describe('phantom confirmation in the record', () => {
  const confirmation = {
    baseline: { reproduced: true as const }, trials: 5, max_trials: 24, output_compared: true, duration_ms: 52_300,
    phantom: { broke: { openssl: { how: 'build-failed' as const, excerpt: 'build: undefined reference to `EVP_MD_CTX_new`\ncollect2: error: ld returned 1 exit status' } }, untried: ['zlib'], together: ['libsqlite3-dev'], not_in_final_manifest: ['colorama'] },
    bloat: { unsupported: 'pip cannot exclude an installed package' },
  };

  test('each untraced name unneeded or needed with how it broke, the baseline, the trials and their cost, and why bloat was not tried', () => {
    const r = record({
      language: 'cpp', declared: ['colorama', 'libsqlite3-dev', 'nlohmann_json', 'openssl', 'zlib'], traced: ['crypto'],
      phantom_check: { colorama: 'unneeded', 'libsqlite3-dev': 'unneeded', nlohmann_json: 'unneeded', openssl: 'needed' }, confirmation,
    });
    expect(instanceHeader(ID, r, []).split('\n').slice(2, -2)).toEqual([
      'confirmation: the unchanged project ran again alike; 5 trial(s) of at most 24, 52.3 s of trial executions; exits and output compared',
      'phantom_check:',
      '  colorama: unneeded (not in the final manifest: the final project ran without it)',
      '  libsqlite3-dev: unneeded (it broke the project alone, not with the other unneeded names gone too)',
      '  nlohmann_json: unneeded',
      '  openssl: needed (build-failed)',
      '      build: undefined reference to `EVP_MD_CTX_new`',
      '      collect2: error: ld returned 1 exit status',
      '  zlib: untried (the trial budget ran out, or the manifest cannot lose it)',
      'bloat_check: not possible: pip cannot exclude an installed package',
    ]);
  });

  test('Maven bloat by exclusion, volatile output, an unchanged project that did not run again, a harness fault; nothing without a confirmation', () => {
    const java = record({
      language: 'java', phantom_check: {}, bloat_check: { 'hamcrest-core': 'unneeded', jna: 'needed' },
      confirmation: { ...confirmation, output_compared: false, phantom: { broke: {}, untried: [], not_in_final_manifest: [] }, bloat: { broke: { jna: { how: 'run-exit-differs', excerpt: 'exit 1, not 0: NoClassDefFoundError' } }, untried: [] }, error: 'removalTrial: docker is gone' },
    });
    expect(instanceHeader(ID, java, []).split('\n').slice(2, -2)).toEqual([
      'confirmation: the unchanged project ran again alike; 5 trial(s) of at most 24, 52.3 s of trial executions; exits compared, not output (the unchanged project printed differently twice)',
      'phantom_check: no name to try',
      'bloat_check:',
      '  hamcrest-core: unneeded',
      '  jna: needed (run-exit-differs)',
      '      exit 1, not 0: NoClassDefFoundError',
      'confirmation error: removalTrial: docker is gone',
    ]);
    const broken = record({ confirmation: { ...confirmation, trials: 1, duration_ms: 9000, baseline: { reproduced: false, how: 'install-failed', excerpt: 'install: pip: no network' }, phantom: { broke: {}, untried: ['six'], not_in_final_manifest: [] } } });
    expect(instanceHeader(ID, broken, []).split('\n').slice(2, -2)).toEqual([
      'confirmation: the unchanged project did not run again (install-failed), so nothing was confirmed; 1 trial(s) of at most 24, 9.0 s of trial executions',
      '  install: pip: no network',
      'bloat_check: not possible: pip cannot exclude an installed package',
    ]);
    expect(instanceHeader(ID, record(), [])).not.toContain('confirmation');
  });
});
