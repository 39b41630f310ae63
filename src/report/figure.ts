import type { TopLevelSpec } from 'vega-lite' with { 'resolution-mode': 'import' };

/** One figure of the report: a vega-lite spec over inline data, with a one-line caption that says how to read it. */
export interface Figure {
  kind: 'figure';
  id: string;
  title: string;
  caption: string;
  spec: TopLevelSpec;
}

/** A table of the report (the paper's tables), cells already formatted. */
export interface Table {
  kind: 'table';
  id: string;
  title: string;
  caption: string;
  head: string[];
  rows: string[][];
}

export type ReportItem = Figure | Table;

/** The part of the report one protocol contributes. */
export interface ReportSection {
  id: string;
  title: string;
  /** What the section was drawn from, in one line (records, exclusions). */
  summary: string;
  items: ReportItem[];
}

/** A 95% interval as the metrics give it beside a rate `x` (`x_ci`), or null. */
export interface Interval {
  low: number;
  high: number;
}

/** The interval the metrics put beside `field` of `row` (`<field>_ci`), where there is one. */
export function intervalOf(row: object, field: string): Interval | null {
  const ci = (row as Record<string, unknown>)[`${field}_ci`];
  if (!ci || typeof ci !== 'object') return null;
  const { low, high } = ci as Record<string, unknown>;
  return typeof low === 'number' && typeof high === 'number' ? { low, high } : null;
}

export const pct = (x: number | null | undefined): string => (x === null || x === undefined ? '-' : `${(x * 100).toFixed(1)}%`);
export const num = (x: number | null | undefined, digits = 3): string => (x === null || x === undefined ? '-' : x.toFixed(digits));

/** A rate with its interval, as the tables show it: `41.2% [38.0–44.5]`. */
export function pctWithInterval(row: object, field: string): string {
  const x = (row as Record<string, unknown>)[field] as number | null;
  const ci = intervalOf(row, field);
  return ci && x !== null ? `${pct(x)} [${(ci.low * 100).toFixed(1)}–${(ci.high * 100).toFixed(1)}]` : pct(x);
}

/** A rate and its interval as one row of a figure's data: the interval's ends are null without one. */
export function rateDatum(row: object, field: string): { value: number | null; low: number | null; high: number | null } {
  const value = ((row as Record<string, unknown>)[field] as number | null) ?? null;
  const ci = intervalOf(row, field);
  return { value, low: ci?.low ?? null, high: ci?.high ?? null };
}
