import type { Instance } from './instances';
import { mean, median } from './stats';

/**
 * M2: rho = n2 / n1 for each successful instance with n1 > 0 and a known n2. The sizes are the
 * per-run counts where the records carry them (declared_count, installed_count), else the lists'.
 */
export function inflationRatios(instances: readonly Instance[]): number[] {
  const ratios: number[] = [];
  for (const i of instances) {
    if (!i.success || !i.declaredCount || i.installedCount === null) continue;
    ratios.push(i.installedCount / i.declaredCount);
  }
  return ratios;
}

export function inflationSummary(instances: readonly Instance[]) {
  const ratios = inflationRatios(instances);
  return { rho_n: ratios.length, rho_mean: mean(ratios), rho_median: median(ratios) };
}
