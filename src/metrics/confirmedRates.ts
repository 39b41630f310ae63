import type { Instance } from './instances';
import type { Rate } from './rate';
import { difference } from './sets';
import { mean } from './stats';

/**
 * Confirmed phantom and bloat rates beside M3 (docs/metrics.md, "Confirmed by removal"): over the
 * successful instances whose record carries a phantom confirmation (`phantom_check`; `bloat_check`
 * for bloat), the share of D1 (D2) confirmed unneeded by removal, next to M3's rate from the trace
 * alone over the same instances, with the names counted: traced-only phantoms (bloat), and of them
 * unneeded, needed and untried (the trial budget spent, or not removable).
 */
export interface ConfirmedRates {
  /** successful instances with phantom_check */
  phantom_n: number;
  /** M3 phantom over those instances: |D1 \ D3| / n1, mean */
  phantom_traced: Rate;
  /** |{d in D1: phantom_check[d] = unneeded}| / n1, mean */
  phantom_confirmed: Rate;
  phantom_names: number;
  phantom_unneeded: number;
  phantom_needed: number;
  phantom_untried: number;
  /** the same for bloat, over the successful instances with bloat_check (ecosystems that can remove an installed package: Maven) */
  bloat_n: number;
  bloat_traced: Rate;
  bloat_confirmed: Rate;
  bloat_names: number;
  bloat_unneeded: number;
  bloat_needed: number;
  bloat_untried: number;
}

const rateOrZero = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);

interface Counted {
  traced: number[];
  confirmed: number[];
  names: number;
  unneeded: number;
  needed: number;
  untried: number;
}

function count(pairs: { whole: ReadonlySet<string>; traced: ReadonlySet<string>; check: Readonly<Record<string, string>> }[]): Counted {
  const c: Counted = { traced: [], confirmed: [], names: 0, unneeded: 0, needed: 0, untried: 0 };
  for (const { whole, traced, check } of pairs) {
    const untraced = difference(whole, traced);
    const unneeded = untraced.filter((n) => check[n] === 'unneeded').length;
    const needed = untraced.filter((n) => check[n] === 'needed').length;
    c.traced.push(rateOrZero(untraced.length, whole.size));
    c.confirmed.push(rateOrZero(unneeded, whole.size));
    c.names += untraced.length;
    c.unneeded += unneeded;
    c.needed += needed;
    c.untried += untraced.length - unneeded - needed;
  }
  return c;
}

/** The confirmed rates of a group, or nothing where none of its instances was confirmed (so reports of unconfirmed studies stay as they were). */
export function confirmedSummary(instances: readonly Instance[]): { confirmed?: ConfirmedRates } {
  const ok = instances.filter((i) => i.success && i.traced !== null);
  const phantom = ok.filter((i) => i.phantomCheck && i.declared !== null);
  if (phantom.length === 0) return {};
  const bloat = ok.filter((i) => i.bloatCheck && i.installed !== null);
  const p = count(phantom.map((i) => ({ whole: i.declared!, traced: i.traced!, check: i.phantomCheck! })));
  const b = count(bloat.map((i) => ({ whole: i.installed!, traced: i.traced!, check: i.bloatCheck! })));
  return {
    confirmed: {
      phantom_n: phantom.length,
      phantom_traced: mean(p.traced),
      phantom_confirmed: mean(p.confirmed),
      phantom_names: p.names,
      phantom_unneeded: p.unneeded,
      phantom_needed: p.needed,
      phantom_untried: p.untried,
      bloat_n: bloat.length,
      bloat_traced: mean(b.traced),
      bloat_confirmed: mean(b.confirmed),
      bloat_names: b.names,
      bloat_unneeded: b.unneeded,
      bloat_needed: b.needed,
      bloat_untried: b.untried,
    },
  };
}
