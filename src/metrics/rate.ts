/** Rates are fractions from 0 to 1; null where a metric is undefined (an empty denominator). */
export type Rate = number | null;
