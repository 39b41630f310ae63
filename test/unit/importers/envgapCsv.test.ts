import { InstanceRecord } from '../../../src/domain/instance';
import { importEnvgapCsv } from '../../../src/importers/envgapCsv';
import { OVERVIEW, runsCsv } from './envgapFixture';

describe('importEnvgapCsv', () => {
  const results = {
    'claude_python_reproducibility_analysis.csv': runsCsv([
      {
        task: 'p_01', claimed: 'pandas==2.2.2', claimedCount: '1', transitive: 'numpy==1.26.4,pandas==2.2.2,six==1.16.0',
        transitiveCount: '3', runtime: 'numpy==1.26.4,pandas==2.2.2',
      },
      { task: 'p_02', claimed: 'cryptography==42.0.5', claimedCount: '1', first: 'FALSE', errorType: 'MissingDep', final: 'TRUE' },
    ]),
    'claude_trial_2_python_reproducibility_analysis.csv': runsCsv([{ task: 'p_02', claimed: 'None', claimedCount: '0' }]),
    'codex_cpp_reproducibility_analysis.csv': runsCsv([
      { task: 'p_02', claimed: 'OpenSSL', claimedCount: '1', transitive: '', transitiveCount: '', first: 'False', errorType: 'MissingDep', final: 'False', runtime: 'N/A' },
      { task: 'p_09', claimed: 'None', claimedCount: '0', runtime: 'libcrypto,libz.so.1' },
    ]),
    'run_matrix.csv': 'run_id,model\nM1,claude\n',
  };
  const records = importEnvgapCsv({ results, overview: OVERVIEW });
  const find = (agent: string, language: string, task: string, trial = 1) =>
    records.find((r) => r.agent === agent && r.language === language && r.task === task && r.trial === trial)!;

  it('makes one valid record per run, named by the file (agent, trial, language)', () => {
    expect(records).toHaveLength(5);
    for (const r of records) expect(InstanceRecord.parse(r)).toEqual(r);
    expect(records.map((r) => `${r.agent}/${r.language}/${r.task}/${r.trial}`)).toEqual([
      'claude/python/p_01/1', 'claude/python/p_02/1', 'claude/python/p_02/2', 'codex/cpp/p_02/1', 'codex/cpp/p_09/1',
    ]);
  });

  it('reads a first-attempt success', () => {
    expect(find('claude', 'python', 'p_01')).toEqual({
      schema: 'envgap.instance/v1',
      study: 'envgap-paper',
      agent: 'claude',
      language: 'python',
      task: 'p_01',
      trial: 1,
      domain: 'Data Processing',
      status: 'success',
      first_attempt_success: true,
      repair_depth: 0,
      first_error_class: null,
      declared: ['pandas'],
      installed: ['numpy', 'pandas', 'six'],
      traced: ['numpy', 'pandas'],
      traced_build: null,
      stdlib_sufficient: false,
      declared_count: 1,
      installed_count: 3,
    });
  });

  it('reads a repaired run: depth unknown, first error class kept', () => {
    expect(find('claude', 'python', 'p_02')).toMatchObject({
      status: 'success', first_attempt_success: false, repair_depth: null, first_error_class: 'MissingDep', traced: [],
    });
  });

  it('reads a failed C++ run: MissingDep is a system library, no traced set, blank count is null', () => {
    expect(find('codex', 'cpp', 'p_02')).toMatchObject({
      status: 'failed', first_error_class: 'SystemLib', repair_depth: null, traced: null, declared: ['openssl'],
      installed: [], installed_count: null,
    });
    expect(find('codex', 'cpp', 'p_09').traced).toEqual(['crypto', 'z']);
    expect(find('codex', 'cpp', 'p_09').domain).toBeNull();
  });

  it('a task is stdlib-sufficient in a language when any run there succeeded with an empty manifest', () => {
    expect(find('claude', 'python', 'p_02').stdlib_sufficient).toBe(true); // trial 2 had none
    expect(find('claude', 'python', 'p_02', 2).stdlib_sufficient).toBe(true);
    expect(find('claude', 'python', 'p_01').stdlib_sufficient).toBe(false);
    expect(find('codex', 'cpp', 'p_02').stdlib_sufficient).toBe(false); // python's p_02 does not count for C++
    expect(find('codex', 'cpp', 'p_09').stdlib_sufficient).toBe(true);
  });

  it('takes a study name and a list reading', () => {
    const whitespace = importEnvgapCsv(
      { results: { 'gemini_javascript_reproducibility_analysis.csv': runsCsv([{ task: 'p_01', claimed: 'yargs', claimedCount: '1', runtime: 'yargs cliui' }]) }, overview: OVERVIEW },
      { study: 'paper', lists: 'whitespace-aware' },
    );
    expect(whitespace[0]).toMatchObject({ study: 'paper', traced: ['yargs', 'cliui'] });
  });

  it('names the file, record and column of bad input', () => {
    const bad = (name: string, csv: string) => () => importEnvgapCsv({ results: { [name]: csv }, overview: OVERVIEW });
    expect(bad('claude_python_reproducibility_analysis.csv', runsCsv([{ task: 'p_01', first: 'maybe' }]))).toThrow(
      'results/claude_python_reproducibility_analysis.csv record 2: initial_execution is "maybe", not True or False',
    );
    expect(bad('claude_python_reproducibility_analysis.csv', runsCsv([{ task: 'p_01', claimedCount: 'two' }]))).toThrow(
      /record 2: claimed_count is "two", not a count/,
    );
    expect(bad('claude_python_reproducibility_analysis.csv', runsCsv([{ task: 'p_01', first: 'False', errorType: 'Gremlins' }]))).toThrow(
      /record 2: unknown initial_error_type "Gremlins"/,
    );
    expect(bad('claude_python_reproducibility_analysis.csv', 'prompt_id,claimed_deps\np_01,x\n')).toThrow(/missing column\(s\) claimed_count/);
    expect(bad('notes.csv', 'a\n1\n')).toThrow(/results\/notes.csv: not <agent>/);
  });
});
