import { formatTable } from '../text/table';
import { toCsv } from './csvText';
import { NOISE_ASPECTS, type NoiseFloor } from './noiseFloor';

const percent = (v: number | null) => (v === null ? null : (100 * v).toFixed(1));
const counted = (flips: number, rate: number | null) => `${flips} (${percent(rate) ?? '-'} %)`;

/** The noise floor for people: one line per scope, flips with their share of the groups, then the groups that flipped and how. */
export function formatNoiseFloor(noise: NoiseFloor): string {
  const table = formatTable(
    ['language', 'groups', 'trials', 'errors', 'success', 'first attempt', 'D1', 'D2', 'D3', 'D3 (all succeeded)'],
    noise.rows.map((r) => [
      r.language, r.groups, r.trials, r.error_trials,
      counted(r.success_flips, r.success_flip_rate), counted(r.first_attempt_flips, r.first_attempt_flip_rate),
      counted(r.d1_flips, r.d1_flip_rate), counted(r.d2_flips, r.d2_flip_rate), counted(r.d3_flips, r.d3_flip_rate),
      `${r.d3_flips_all_successful}/${r.all_successful_groups} (${percent(r.d3_flip_rate_all_successful) ?? '-'} %)`,
    ]),
  );
  const flips =
    noise.flips.length === 0
      ? 'no group flipped'
      : 'groups that flipped (values in trial order of first appearance; - is none)\n' +
        noise.flips
          .map((f) => `${f.agent}/${f.language}/${f.task} (${f.trials} trials): ` + f.aspects.map((a) => `${a} ${f.values[a]!.map((v) => (v === null ? '-' : `[${v}]`)).join(' | ')}`).join('; '))
          .join('\n');
  return `envgap noise floor: per (agent, language, task), whether its trials (the same agent output, fresh containers) disagreed\n${table}\n\n${flips}\n`;
}

/** noise_floor.csv (the rows) and noise_flips.csv (one line per flipped aspect of a group). */
export function noiseFloorToCsv(noise: NoiseFloor): Record<string, string> {
  const columns = [
    'language', 'groups', 'trials', 'error_trials',
    ...NOISE_ASPECTS.flatMap((a) => [`${a}_flips`, `${a}_flip_rate`]),
    'all_successful_groups', 'd3_flips_all_successful', 'd3_flip_rate_all_successful',
  ] as const;
  return {
    'noise_floor.csv': toCsv(columns, noise.rows.map((r) => columns.map((c) => (r as unknown as Record<string, string | number | null>)[c]))),
    'noise_flips.csv': toCsv(
      ['agent', 'language', 'task', 'trials', 'aspect', 'values'],
      noise.flips.flatMap((f) => f.aspects.map((a) => [f.agent, f.language, f.task, f.trials, a, f.values[a]!.map((v) => v ?? '-').join(' | ')])),
    ),
  };
}
