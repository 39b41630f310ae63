import { LANGUAGES, type InstanceRecord, type Language } from '../domain/instance';
import { groupBy, sortedUnique } from './instances';
import { share } from './stats';

/** What may flip between executions of the same agent output: each instance's outcome and dependency sets. */
export const NOISE_ASPECTS = ['success', 'first_attempt', 'd1', 'd2', 'd3'] as const;
export type NoiseAspect = (typeof NOISE_ASPECTS)[number];

/** One scope (every language, or one) of the noise floor: how often each aspect differed across a group's trials. */
export interface NoiseFloorRow {
  language: Language | 'all';
  /** (agent, language, task) groups with at least two trials compared */
  groups: number;
  /** trials compared in those groups */
  trials: number;
  /** trials left out: harness faults (status error) say nothing of the instrument's verdicts */
  error_trials: number;
  success_flips: number;
  success_flip_rate: number | null;
  first_attempt_flips: number;
  first_attempt_flip_rate: number | null;
  d1_flips: number;
  d1_flip_rate: number | null;
  d2_flips: number;
  d2_flip_rate: number | null;
  d3_flips: number;
  d3_flip_rate: number | null;
  /** groups whose every trial succeeded: D3 noise apart from success noise */
  all_successful_groups: number;
  d3_flips_all_successful: number;
  d3_flip_rate_all_successful: number | null;
}

/** A group whose trials disagreed, with the values each aspect took (sets as space-separated names; null where absent). */
export interface NoiseFlip {
  agent: string;
  language: Language;
  task: string;
  trials: number;
  aspects: NoiseAspect[];
  /** per flipped aspect, its distinct values over the trials, in trial order of first appearance */
  values: Partial<Record<NoiseAspect, (string | null)[]>>;
}

export interface NoiseFloor {
  schema: 'envgap.noise/v1';
  /** `all` first, then each language present */
  rows: NoiseFloorRow[];
  flips: NoiseFlip[];
}

const setValue = (names: string[] | null): string | null => (names === null ? null : [...new Set(names)].sort().join(' '));

/** The value of each aspect in one record, comparable with ===. */
function aspects(r: InstanceRecord): Record<NoiseAspect, string | null> {
  return {
    success: r.status,
    first_attempt: String(r.first_attempt_success),
    d1: setValue(r.declared),
    d2: setValue(r.installed),
    d3: setValue(r.traced),
  };
}

interface Group {
  agent: string;
  language: Language;
  task: string;
  compared: InstanceRecord[];
  errors: number;
  flipped: NoiseAspect[];
  values: Partial<Record<NoiseAspect, (string | null)[]>>;
  allSuccessful: boolean;
}

function judge(records: InstanceRecord[]): Group {
  const compared = records.filter((r) => r.status !== 'error').sort((a, b) => a.trial - b.trial);
  const trials = records.map((r) => r.trial);
  if (new Set(trials).size !== trials.length) {
    const r = records[0];
    throw new Error(`noise floor: two records for one trial of ${r.agent}/${r.language}/${r.task}; compute it over one study`);
  }
  const seen = compared.map(aspects);
  const flipped: NoiseAspect[] = [];
  const values: Partial<Record<NoiseAspect, (string | null)[]>> = {};
  for (const a of NOISE_ASPECTS) {
    const distinct = [...new Set(seen.map((s) => s[a]))];
    if (distinct.length > 1) {
      flipped.push(a);
      values[a] = distinct;
    }
  }
  const [first] = records;
  return {
    agent: first.agent,
    language: first.language,
    task: first.task,
    compared,
    errors: records.length - compared.length,
    flipped,
    values,
    allSuccessful: compared.every((r) => r.status === 'success'),
  };
}

function row(language: Language | 'all', groups: readonly Group[], errorTrials: number): NoiseFloorRow {
  const counted = groups.filter((g) => g.compared.length >= 2);
  const flips = (a: NoiseAspect, among = counted) => among.filter((g) => g.flipped.includes(a)).length;
  const successful = counted.filter((g) => g.allSuccessful);
  const out = {
    language,
    groups: counted.length,
    trials: counted.reduce((n, g) => n + g.compared.length, 0),
    error_trials: errorTrials,
  } as NoiseFloorRow;
  const fields = out as unknown as Record<string, number | null>;
  for (const a of NOISE_ASPECTS) {
    fields[`${a}_flips`] = flips(a);
    fields[`${a}_flip_rate`] = share(flips(a), counted.length);
  }
  out.all_successful_groups = successful.length;
  out.d3_flips_all_successful = flips('d3', successful);
  out.d3_flip_rate_all_successful = share(out.d3_flips_all_successful, successful.length);
  return out;
}

/**
 * The instrument's noise floor (issue 26, item 4; docs/metrics.md, "Noise floor"): over records whose
 * trials executed the same agent output (a replay agent playing one recorded trial, a static agent), per
 * (agent, language, task) with at least two trials that were not harness faults, whether the trials
 * disagreed on success, on first-attempt success, and on D1, D2 or D3 (a missing set differs from any
 * set). The share of such groups per aspect, over every language and per language, and the groups that
 * flipped. D1 is read from the agent's answer and never flips unless the answers differed. Pure.
 */
export function noiseFloor(records: readonly InstanceRecord[]): NoiseFloor {
  const byGroup = groupBy(records, (r) => `${r.agent}\u0000${r.language}\u0000${r.task}`);
  const agents = sortedUnique(records.map((r) => r.agent));
  const order = (g: Group) => [agents.indexOf(g.agent), LANGUAGES.indexOf(g.language), g.task] as const;
  const groups = [...byGroup.values()].map(judge).sort((x, y) => {
    const [a, b] = [order(x), order(y)];
    return a[0] - b[0] || a[1] - b[1] || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0);
  });
  const errorsIn = (gs: readonly Group[]) => gs.reduce((n, g) => n + g.errors, 0);
  const languages = LANGUAGES.filter((l) => groups.some((g) => g.language === l));
  return {
    schema: 'envgap.noise/v1',
    rows: [row('all', groups, errorsIn(groups)), ...languages.map((l) => row(l, groups.filter((g) => g.language === l), errorsIn(groups.filter((g) => g.language === l))))],
    flips: groups
      .filter((g) => g.compared.length >= 2 && g.flipped.length > 0)
      .map((g) => ({ agent: g.agent, language: g.language, task: g.task, trials: g.compared.length, aspects: g.flipped, values: g.values })),
  };
}
