import type { ReadinessRecord } from '../../domain/readiness';
import { c0TotalsFrom } from './c0Totals';
import { envgapGroups } from './envgapMode';
import type { ReadinessMetrics, ReadinessMode } from './types';
import { upstreamGroups } from './upstreamMode';

export type { ReadinessGroup, ReadinessMetrics, ReadinessMode, StageCount } from './types';
export type { SetupPrecisionSummary } from './setupPrecision';
export { formatReadinessTable, readinessToCsv } from './format';

export interface ReadinessMetricsOptions {
  mode: ReadinessMode;
  /**
   * C0 denominators by owner/name. Upstream mode needs them (the shipped copy of upstream's table,
   * or a replacement); envgap mode uses them, where given, over the records' own totals.
   */
  c0Totals?: Readonly<Record<string, number>>;
}

export function computeReadinessMetrics(records: readonly ReadinessRecord[], opts: ReadinessMetricsOptions): ReadinessMetrics {
  const totals = opts.c0Totals === undefined ? null : c0TotalsFrom(opts.c0Totals);
  if (opts.mode === 'upstream') {
    if (totals === null) throw new Error('readiness metrics: upstream mode needs the C0 totals table');
    return { mode: 'upstream', groups: upstreamGroups(records, totals) };
  }
  return { mode: 'envgap', groups: envgapGroups(records, totals) };
}
