import type { ErrorClass, Language } from '../domain/instance';

/** The data set's `initial_error_type` labels, mapped to envgap's first-error classes. */
const LABELS: Record<string, ErrorClass> = {
  SystemLib: 'SystemLib',
  MissingDep: 'MissingDep',
  BuildError: 'Build',
  BuildConfig: 'Build',
  // a package or FetchContent download/installation that failed
  InstallError: 'FetchFail',
  RuntimeError: 'Runtime',
  CodeBug: 'Other',
  MultipleFixes: 'Other',
};

/**
 * The class of a first-attempt failure. In C++ the data set labels a missing system library
 * `MissingDep` or `SystemLib` alike (the paper's Table 6 counts both), so both become SystemLib.
 * A failure with no label is `Other`; an unknown label is an error, so new labels get looked at.
 */
export function firstErrorClass(label: string, language: Language): ErrorClass {
  const trimmed = label.trim();
  if (trimmed === '' || trimmed.toLowerCase() === 'none') return 'Other';
  const mapped = LABELS[trimmed];
  if (mapped === undefined) throw new Error(`unknown initial_error_type "${trimmed}"`);
  return language === 'cpp' && mapped === 'MissingDep' ? 'SystemLib' : mapped;
}
