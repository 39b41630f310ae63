import type { CalibrationTruth, KnownLimitation } from './truth';

export type CalibratedLayer = KnownLimitation['layer'];

/**
 * What envgap must give for one layer of a calibration project: names that must be in it, names that
 * must not, and whether it must hold nothing else (`exact`).
 */
export interface LayerExpectation {
  present: string[];
  absent: string[];
  exact: boolean;
}

/**
 * The truth of a layer (before the known limitations): D1 exactly; D2's includes and excludes; D3 the
 * run's used and unused names (exact when the truth is complete); D3-build the build's, where given.
 */
export function truthOfLayer(truth: CalibrationTruth, layer: CalibratedLayer): LayerExpectation | null {
  switch (layer) {
    case 'declared':
      return { present: truth.declared, absent: [], exact: true };
    case 'installed':
      return { present: truth.installed.includes, absent: truth.installed.excludes, exact: false };
    case 'traced':
      return { present: truth.run.used, absent: truth.run.unused, exact: truth.run.complete };
    case 'traced_build':
      return truth.build ? { present: truth.build.used, absent: truth.build.unused, exact: false } : null;
    case 'phantoms':
      return { present: truePhantoms(truth), absent: [], exact: true };
  }
}

/** The declared names whose package, under its name in the run's layer, the run did not use. */
export function truePhantoms(truth: CalibrationTruth): string[] {
  const used = new Set(truth.run.used);
  return truth.declared.filter((n) => !used.has(truth.declared_as[n] ?? n)).sort();
}

/** The phantoms as the metrics count them: D1 names not in D3. */
export function reportedPhantoms(declared: readonly string[], traced: readonly string[]): string[] {
  const have = new Set(traced);
  return declared.filter((n) => !have.has(n)).sort();
}

/** What envgap gives today: the truth, with each known limitation of the layer turning a name the other way. */
export function envgapExpectation(truth: CalibrationTruth, layer: CalibratedLayer): LayerExpectation | null {
  const base = truthOfLayer(truth, layer);
  const known = truth.known.filter((k) => k.layer === layer);
  if (base === null) {
    if (known.length > 0) throw new Error(`calibration: a known limitation of ${layer} where the truth gives no ${layer}`);
    return null;
  }
  const present = new Set(base.present);
  const absent = new Set(base.absent);
  for (const k of known) {
    if (k.envgap === 'present') {
      present.add(k.name);
      absent.delete(k.name);
    } else {
      present.delete(k.name);
      absent.add(k.name);
    }
  }
  return { present: [...present].sort(), absent: [...absent].sort(), exact: base.exact };
}

/** How observed (a layer envgap gave) differs from an expectation, one line each; empty when it holds. */
export function layerMismatches(expectation: LayerExpectation, observed: readonly string[] | null): string[] {
  if (observed === null) return ['the layer is absent (null)'];
  const have = new Set(observed);
  const out: string[] = [];
  for (const name of expectation.present) if (!have.has(name)) out.push(`missing ${name}`);
  for (const name of expectation.absent) if (have.has(name)) out.push(`unexpected ${name}`);
  if (expectation.exact) {
    const allowed = new Set(expectation.present);
    for (const name of observed) if (!allowed.has(name) && !expectation.absent.includes(name)) out.push(`unexpected ${name}`);
  }
  return out;
}
