import { languagesOf, type Instance } from './instances';
import type { SpearmanRow } from './report';
import { spearman } from './spearman';

/**
 * Spearman correlation of the manifest size n1 with first-attempt success (1 or 0), per language,
 * over all primary instances with a known n1, successful in the end or not.
 */
export function manifestSizeCorrelation(primary: readonly Instance[]): SpearmanRow[] {
  return languagesOf(primary).map((language) => {
    const sized = primary.filter((i) => i.language === language && i.declaredCount !== null);
    const { n, rho, p } = spearman(
      sized.map((i) => i.declaredCount as number),
      sized.map((i) => (i.firstAttemptSuccess ? 1 : 0)),
    );
    return { language, n, rho, p };
  });
}
