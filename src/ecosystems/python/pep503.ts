/** PEP 503 normalised project name: lower case, each run of `-`, `_` and `.` becomes one `-`. */
export function normalizePythonName(name: string): string {
  return name.replace(/[-_.]+/g, '-').toLowerCase();
}
