/**
 * Both denominators (issue 26, item 5): every rate is computed twice, with the harness faults (records
 * with status `error`) left out, as the metrics always did, and with them counted as failures. The
 * second value sits beside the first as `<rate>_errors_as_failures`, and their difference
 * (counted minus left out) as `<rate>_errors_delta`; a row whose group held faults says how many in
 * `harness_errors`. Pure.
 */

export const AS_FAILURES = '_errors_as_failures';
export const DELTA = '_errors_delta';

/** M1-M4 of a cell or language: the rates of QualitySummary. */
export const QUALITY_RATES = ['sr0', 'final_sr', 'repaired_share', 'precision', 'recall', 'f1', 'phantom', 'hidden', 'bloat'] as const;
export const CELL_RATES = [...QUALITY_RATES, 'udr'] as const;
export const DOMAIN_RATES = ['sr0', 'final_sr'] as const;
export const ENVIRONMENT_GAP_RATES = ['slar', 'egar'] as const;

export type QualityRate = (typeof QUALITY_RATES)[number];

/** How one section's rows are paired: which row is which group, and what to pair. */
export interface PairSpec<R> {
  key: (row: R) => string;
  /** the rates that get a second denominator */
  rates: readonly string[];
  /** a count of the group whose difference between the two views is its harness faults (`harness_errors`) */
  size?: string;
  /** values copied from the counted row under `<field>_errors_as_failures` (lists, such as the weakest domains) */
  extras?: readonly string[];
  /**
   * the left-out row of a group made of harness faults alone (it has no row there); without it such a
   * group keeps no row
   */
  empty?: (counted: R) => R;
}

type Row = Record<string, unknown>;

const numberOrNull = (v: unknown): number | null => (typeof v === 'number' ? v : null);

/** The left-out row with the counted row's rates, their differences and the fault count beside it, each right after its own field. */
function paired(left: Row, counted: Row | null, spec: PairSpec<never>): Row {
  const out: Row = {};
  for (const [field, value] of Object.entries(left)) {
    out[field] = value;
    if (spec.rates.includes(field)) {
      const second = counted === null ? null : numberOrNull(counted[field]);
      const first = numberOrNull(value);
      out[field + AS_FAILURES] = second;
      out[field + DELTA] = first === null || second === null ? null : second - first;
    } else if (field === spec.size) {
      out.harness_errors = counted === null ? 0 : (numberOrNull(counted[field]) ?? 0) - (numberOrNull(value) ?? 0);
    } else if (spec.extras?.includes(field)) {
      out[field + AS_FAILURES] = counted === null ? null : counted[field];
    }
  }
  return out;
}

/**
 * The rows of the left-out view, each with the counted view's values beside it, in the counted view's
 * order (its groups are a superset: a fault only adds instances). A group only faults make appears
 * with its left-out rates null where the spec says how to make its empty row.
 */
export function pairRows<R extends object>(leftOut: readonly R[], counted: readonly R[], spec: PairSpec<R>): R[] {
  const s = spec as unknown as PairSpec<never>;
  const left = new Map(leftOut.map((r) => [spec.key(r), r as unknown as Row]));
  const rows: Row[] = [];
  const seen = new Set<string>();
  for (const c of counted) {
    const key = spec.key(c);
    seen.add(key);
    const l = left.get(key) ?? (spec.empty ? (spec.empty(c) as unknown as Row) : null);
    if (l !== null) rows.push(paired(l, c as unknown as Row, s));
  }
  for (const [key, l] of left) if (!seen.has(key)) rows.push(paired(l, null, s));
  return rows as unknown as R[];
}

/** A single rate of the report (such as the CDR macro average) with its second denominator, as fields named after it. */
export function pairedValue<N extends string>(name: N, leftOut: number | null, counted: number | null): Record<N | `${N}${typeof AS_FAILURES}` | `${N}${typeof DELTA}`, number | null> {
  return {
    [name]: leftOut,
    [name + AS_FAILURES]: counted,
    [name + DELTA]: leftOut === null || counted === null ? null : counted - leftOut,
  } as Record<N | `${N}${typeof AS_FAILURES}` | `${N}${typeof DELTA}`, number | null>;
}

/** Column names with each rate's two companions right after it, and `harness_errors` after the size column. */
export function columnsWithSecondDenominator<C extends string>(columns: readonly C[], rates: readonly string[], size?: string): string[] {
  return columns.flatMap((c) => (rates.includes(c) ? [c, c + AS_FAILURES, c + DELTA] : c === size ? [c, 'harness_errors'] : [c]));
}
