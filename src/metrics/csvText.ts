export type CsvValue = string | number | boolean | null;

function field(value: CsvValue): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** RFC 4180 text: a header row, then one row per record; null is an empty field; CRLF-free (LF). */
export function toCsv(headers: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [headers, ...rows].map((r) => r.map(field).join(',')).join('\n') + '\n';
}
