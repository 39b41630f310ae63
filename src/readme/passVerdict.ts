import { missingImports } from '../readiness/pyright';

/** pyright's `--outputjson` report, as far as Pass@1 reads it. */
interface PyrightReport {
  generalDiagnostics?: { file?: string; rule?: string; message?: string; range?: { start?: { line?: number } } }[];
}

export interface MissingImports {
  /** How many reportMissingImports diagnostics (EnvBench's `issues_count`): Pass@1 needs 0. */
  count: number;
  /** Their distinct top-level module names, sorted. */
  names: string[];
  /** One line per diagnostic, `file:line: message` (file relative to the repository). */
  lines: string[];
}

/** The reportMissingImports diagnostics of pyright's JSON report; throws where the output is not one. */
export function missingImportDiagnostics(outputJson: string, root = '/repo'): MissingImports {
  const names = missingImports(outputJson);
  const report = JSON.parse(outputJson.slice(outputJson.indexOf('{'), outputJson.lastIndexOf('}') + 1)) as PyrightReport;
  const found = (report.generalDiagnostics ?? []).filter((d) => d.rule === 'reportMissingImports');
  const rel = (f: string | undefined) => (f ?? '?').replace(new RegExp(`^${root}/`), '');
  return { count: found.length, names, lines: found.map((d) => `${rel(d.file)}:${(d.range?.start?.line ?? -1) + 1}: ${d.message ?? ''}`) };
}

/** pip (urllib3, requests) failing to reach a host: worth asking whether the index itself went away. */
const NETWORK_TROUBLE = /Failed to establish a new connection|Temporary failure in name resolution|Network is unreachable|Connection reset by peer|Read timed out|ConnectTimeoutError|ProxyError|Could not resolve host/;

export function looksLikeNetworkTrouble(output: string): boolean {
  return NETWORK_TROUBLE.test(output);
}

/** The last non-empty line of a command's output, capped: what a failed script said last. */
export function lastLine(output: string, max = 300): string {
  const line = output.trimEnd().split('\n').reverse().find((l) => l.trim() !== '') ?? '';
  return line.length <= max ? line.trim() : `${line.trim().slice(0, max)}…`;
}

/** The end of `text` when long (a failing script's error is at its end), marked as cut. */
export function tailExcerpt(text: string, max = 2000): string {
  if (text.length <= max) return text;
  const start = text.length - max;
  const from = /[\udc00-\udfff]/.test(text[start]!) ? start + 1 : start;
  return `(${from} earlier characters) …${text.slice(from)}`;
}

/** Why a script that did not end with exit 0 failed, in words; null where it did. */
export function scriptFailure(r: { exitCode: number; timedOut: boolean; oomKilled: boolean; output: string }, timeoutS: number): string | null {
  if (r.timedOut) return `script timed out after ${timeoutS} s`;
  if (r.oomKilled) return `script killed for memory (exit ${r.exitCode})`;
  if (r.exitCode === 0) return null;
  const last = lastLine(r.output);
  return last ? `script exited ${r.exitCode}: ${last}` : `script exited ${r.exitCode}`;
}
