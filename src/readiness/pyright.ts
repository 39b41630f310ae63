/** pyright's `--outputjson` report, as far as C0 reads it. */
interface PyrightReport {
  generalDiagnostics?: { rule?: string; message?: string }[];
}

/**
 * The distinct top-level module names pyright reported with reportMissingImports
 * (`Import "a.b" could not be resolved`), sorted; throws where the output is not pyright's JSON.
 */
export function missingImports(outputJson: string, rule: 'reportMissingImports' | 'reportMissingModuleSource' = 'reportMissingImports'): string[] {
  const start = outputJson.indexOf('{');
  if (start < 0) throw new Error('pyright printed no JSON report');
  const end = outputJson.lastIndexOf('}');
  const report = JSON.parse(outputJson.slice(start, end + 1)) as PyrightReport;
  if (!Array.isArray(report.generalDiagnostics)) throw new Error('pyright report has no generalDiagnostics');
  const names = new Set<string>();
  for (const d of report.generalDiagnostics) {
    if (d.rule !== rule) continue;
    const m = /Import "([^"]+)" could not be resolved/.exec(d.message ?? '');
    if (m) names.add(m[1]!.split('.')[0]!);
  }
  return [...names].sort();
}
