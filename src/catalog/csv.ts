/**
 * RFC 4180 CSV: fields separated by commas, records by LF or CRLF; a quoted field may hold commas,
 * line breaks and doubled quotes (""). A leading byte-order mark and one trailing line break are ignored.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;

  const endField = () => {
    row.push(field);
    field = '';
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };

  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i += 1;
        const next = text[i];
        if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
          throw new Error(`CSV record ${rows.length + 1}: unexpected character after closing quote`);
        }
        continue;
      }
      field += c;
      i += 1;
      continue;
    }
    if (c === '"') {
      if (field !== '') throw new Error(`CSV record ${rows.length + 1}: quote inside an unquoted field`);
      quoted = true;
    } else if (c === ',') {
      endField();
    } else if (c === '\r' && text[i + 1] === '\n') {
      endRow();
      i += 1;
    } else if (c === '\n') {
      endRow();
    } else {
      field += c;
    }
    i += 1;
  }
  if (quoted) throw new Error(`CSV record ${rows.length + 1}: unterminated quoted field`);
  // No record after a final line break; a last line without one still counts.
  if (field !== '' || row.length > 0) endRow();
  return rows;
}

/**
 * Rows as objects keyed by the header row; blank lines are skipped and every other row must have
 * exactly the header's field count.
 */
export function parseCsvRecords(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text).filter((fields) => !(fields.length === 1 && fields[0] === ''));
  if (!header) return [];
  return rows.map((fields, index) => {
    if (fields.length !== header.length) {
      throw new Error(`CSV record ${index + 2}: ${fields.length} fields, header has ${header.length}`);
    }
    return Object.fromEntries(header.map((name, column) => [name, fields[column]]));
  });
}
