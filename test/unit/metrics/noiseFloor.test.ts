import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { metricsCommand } from '../../../src/cli/metricsCommand';
import type { InstanceRecord } from '../../../src/domain/instance';
import { formatNoiseFloor, noiseFloorToCsv } from '../../../src/metrics/formatNoiseFloor';
import { noiseFloor } from '../../../src/metrics/noiseFloor';
import { parseCsvRecords } from '../../../src/catalog/csv';
import { failed, record } from './records';

const fault = (over: Partial<InstanceRecord>) => record({ status: 'error', first_attempt_success: false, repair_depth: null, installed: null, traced: null, error: { kind: 'docker', message: 'gone' }, ...over });
const ok = (over: Partial<InstanceRecord>) => record({ declared: ['a'], installed: ['a', 'b'], traced: ['a'], ...over });

describe('the noise floor: the same agent output executed again', () => {
  const records = [
    // p_01: three identical trials.
    ok({ task: 'p_01', trial: 1 }), ok({ task: 'p_01', trial: 2 }), ok({ task: 'p_01', trial: 3 }),
    // p_02: D3 differs (the run loaded b once), every trial succeeded.
    ok({ task: 'p_02', trial: 1 }), ok({ task: 'p_02', trial: 2, traced: ['a', 'b'] }), ok({ task: 'p_02', trial: 3 }),
    // p_03: one trial failed (a registry timeout): success, first attempt, D2 and D3 flip; D1 does not.
    ok({ task: 'p_03', trial: 1 }), failed({ task: 'p_03', trial: 2, declared: ['a'], installed: null }), ok({ task: 'p_03', trial: 3 }),
    // p_04: a harness fault leaves one trial to compare: no group.
    ok({ task: 'p_04', trial: 1 }), fault({ task: 'p_04', trial: 2 }),
    // Java p_01: two trials, D2 order differs but not the set.
    ok({ language: 'java', task: 'p_01', trial: 1, installed: ['b', 'a'] }), ok({ language: 'java', task: 'p_01', trial: 2 }),
  ];
  const noise = noiseFloor(records);

  it('counts, per aspect, the groups whose trials disagreed, overall and per language', () => {
    expect(noise.rows.map((r) => r.language)).toEqual(['all', 'python', 'java']);
    expect(noise.rows[0]).toEqual({
      language: 'all', groups: 4, trials: 11, error_trials: 1,
      success_flips: 1, success_flip_rate: 0.25, first_attempt_flips: 1, first_attempt_flip_rate: 0.25,
      d1_flips: 0, d1_flip_rate: 0, d2_flips: 1, d2_flip_rate: 0.25, d3_flips: 2, d3_flip_rate: 0.5,
      all_successful_groups: 3, d3_flips_all_successful: 1, d3_flip_rate_all_successful: 1 / 3,
    });
    expect(noise.rows[1]).toMatchObject({ language: 'python', groups: 3, trials: 9, error_trials: 1, d3_flips: 2, d3_flip_rate: 2 / 3 });
    expect(noise.rows[2]).toMatchObject({ language: 'java', groups: 1, d2_flips: 0, d3_flips: 0, success_flip_rate: 0 });
  });

  it('lists the groups that flipped with the values each aspect took', () => {
    expect(noise.flips).toEqual([
      { agent: 'claude', language: 'python', task: 'p_02', trials: 3, aspects: ['d3'], values: { d3: ['a', 'a b'] } },
      {
        agent: 'claude', language: 'python', task: 'p_03', trials: 3, aspects: ['success', 'first_attempt', 'd2', 'd3'],
        values: { success: ['success', 'failed'], first_attempt: ['true', 'false'], d2: ['a b', null], d3: ['a', null] },
      },
    ]);
  });

  it('a D1 that differs means the agent output differed: it is reported, not hidden', () => {
    const n = noiseFloor([ok({ trial: 1 }), ok({ trial: 2, declared: ['z'] })]);
    expect(n.rows[0]).toMatchObject({ d1_flips: 1, d1_flip_rate: 1 });
  });

  it('does not depend on the order of the records, and refuses two records of one trial', () => {
    expect(noiseFloor([...records].reverse())).toEqual(noise);
    expect(() => noiseFloor([ok({ study: 'a' }), ok({ study: 'b' })])).toThrow(/two records for one trial of claude\/python\/p_01/);
  });

  it('no groups: rates undefined, not 0', () => {
    expect(noiseFloor([ok({})]).rows[0]).toMatchObject({ groups: 0, success_flip_rate: null, d3_flip_rate_all_successful: null });
    expect(noiseFloor([]).rows).toEqual([expect.objectContaining({ language: 'all', groups: 0 })]);
  });

  it('as a table and as CSV', () => {
    const text = formatNoiseFloor(noise);
    expect(text).toMatch(/\nall\s+4\s+11\s+1\s+1 \(25\.0 %\)\s+1 \(25\.0 %\)\s+0 \(0\.0 %\)\s+1 \(25\.0 %\)\s+2 \(50\.0 %\)\s+1\/3 \(33\.3 %\)/);
    expect(text).toContain('claude/python/p_03 (3 trials): success [success] | [failed]; first_attempt [true] | [false]; d2 [a b] | -; d3 [a] | -');
    const csv = noiseFloorToCsv(noise);
    expect(parseCsvRecords(csv['noise_floor.csv'])[0]).toMatchObject({ language: 'all', groups: '4', d3_flip_rate: '0.5' });
    expect(parseCsvRecords(csv['noise_flips.csv'])).toHaveLength(5);
    expect(formatNoiseFloor(noiseFloor([ok({})]))).toContain('no group flipped');
  });

  it('envgap metrics --noise prints it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-noise-'));
    const input = path.join(dir, 'records.jsonl');
    fs.writeFileSync(input, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    let out = '';
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out += String(chunk);
      return true;
    });
    try {
      await metricsCommand({ input, format: 'json', noise: true }, async () => []);
    } finally {
      write.mockRestore();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(JSON.parse(out)).toEqual(noise);
  });
});
