import type { Broke, ConfirmationDetail, NamesDetail, Verdict } from '../domain/confirmation/types';
import type { InstanceRecord } from '../domain/instance';

const indent = (text: string, by: string) =>
  text
    .split('\n')
    .map((l) => `${by}${l}`)
    .join('\n');

/** The unchanged project's re-run, the trials and their cost, in one line. */
function summaryLine(c: ConfirmationDetail): string {
  const cost = `${c.trials} trial(s) of at most ${c.max_trials}, ${(c.duration_ms / 1000).toFixed(1)} s of trial executions`;
  if (c.baseline === null) return `confirmation: ${c.trials === 0 ? 'nothing to try' : 'the unchanged project was not run again'}; ${cost}`;
  if (!c.baseline.reproduced) return `confirmation: the unchanged project did not run again (${c.baseline.how}), so nothing was confirmed; ${cost}`;
  const output = c.output_compared ? 'exits and output compared' : 'exits compared, not output (the unchanged project printed differently twice)';
  return `confirmation: the unchanged project ran again alike; ${cost}; ${output}`;
}

/** One name's verdict and why: how a needed one broke (with its excerpt, indented), or why an unneeded one needed no trial or a second one. */
function nameLines(name: string, verdict: Verdict | 'untried', broke: Broke | undefined, notes: { together: boolean; notInFinal: boolean }): string[] {
  if (verdict === 'needed' && broke) return [`  ${name}: needed (${broke.how})`, ...(broke.excerpt ? [indent(broke.excerpt, '      ')] : [])];
  const why = notes.notInFinal ? ' (not in the final manifest: the final project ran without it)' : notes.together ? ' (it broke the project alone, not with the other unneeded names gone too)' : '';
  return [`  ${name}: ${verdict}${why}`];
}

/** A check's names: each tried name's verdict, then the untried ones. */
function checkLines(label: string, check: Readonly<Record<string, Verdict>> | undefined, detail: NamesDetail, notInFinal: readonly string[] = []): string[] {
  const names = Object.keys(check ?? {}).sort();
  if (names.length === 0 && detail.untried.length === 0) return [`${label}: no name to try`];
  return [
    `${label}:`,
    ...names.flatMap((n) => nameLines(n, check![n]!, detail.broke[n], { together: detail.together?.includes(n) ?? false, notInFinal: notInFinal.includes(n) })),
    ...detail.untried.map((n) => `  ${n}: untried (the trial budget ran out, or the manifest cannot lose it)`),
  ];
}

/**
 * Phantom confirmation as `envgap instance show` tells it (docs/confirmation.md): whether the unchanged
 * project ran again, the trials and their cost, each declared-but-untraced name `unneeded` or `needed`
 * (how it broke), and the same for bloat or why the ecosystem cannot try it. Nothing where the record
 * has no confirmation.
 */
export function confirmationLines(r: InstanceRecord): string[] {
  const c = r.confirmation;
  if (!c) return [];
  const lines = [summaryLine(c)];
  if (c.baseline?.reproduced === false) lines.push(indent(c.baseline.excerpt, '  '));
  if (c.baseline?.reproduced !== false) lines.push(...checkLines('phantom_check', r.phantom_check, c.phantom, c.phantom.not_in_final_manifest));
  if (c.bloat && 'unsupported' in c.bloat) lines.push(`bloat_check: not possible: ${c.bloat.unsupported}`);
  else if (c.bloat && c.baseline?.reproduced !== false) lines.push(...checkLines('bloat_check', r.bloat_check, c.bloat));
  if (c.error) lines.push(`confirmation error: ${c.error}`);
  return lines;
}
