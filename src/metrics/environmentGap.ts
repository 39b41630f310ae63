import { agentsOf, type Instance } from './instances';
import type { EnvironmentGapRow } from './report';
import { countWhere, share } from './stats';

/** A first-attempt failure caused by a system library the clean image lacks. */
const isSystemLibraryFailure = (i: Instance) => i.firstErrorClass === 'SystemLib' || i.firstErrorClass === 'MissingDep';

/**
 * M8 (C++): SLAR = first-attempt failures classed SystemLib (or MissingDep) / all first-attempt
 * failures; EGAR = the share of those system-library failures that succeeded in the end.
 */
export function environmentGap(primary: readonly Instance[]): EnvironmentGapRow[] {
  const cpp = primary.filter((i) => i.language === 'cpp');
  return agentsOf(cpp).map((agent) => {
    const failures = cpp.filter((i) => i.agent === agent && !i.firstAttemptSuccess);
    const syslib = failures.filter(isSystemLibraryFailure);
    const recovered = countWhere(syslib, (i) => i.success);
    return {
      agent,
      failures: failures.length,
      syslib: syslib.length,
      slar: share(syslib.length, failures.length),
      recovered,
      egar: share(recovered, syslib.length),
    };
  });
}
