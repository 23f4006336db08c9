/**
 * RFC 4180 CSV reading, as WooCommerce writes its product export: UTF-8 with an optional byte-order
 * mark, comma-separated, fields quoted with `"` (a quote inside doubled), CRLF or LF line ends, line
 * breaks allowed inside quoted fields. Every record keeps the line it starts on, so import errors can
 * point at the line a spreadsheet shows.
 */

export type CsvRecord = { line: number; fields: string[] };

export class CsvSyntaxError extends Error {
  override name = 'CsvSyntaxError';
  constructor(
    readonly line: number,
    readonly column: number,
    reason: string,
  ) {
    super(`CSV syntax error at line ${line}, character ${column}: ${reason}`);
  }
}

/** Split CSV text into records. Throws CsvSyntaxError on a stray or unterminated quote. */
export function parseCsv(text: string): CsvRecord[] {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let lineStart = 0;
  let i = 0;
  // A record that is only an empty line (e.g. the final newline) is not a record.
  let recordHasContent = false;
  // True until the current field has a character (a quote is only special there).
  let atFieldStart = true;
  const endField = () => {
    fields.push(field);
    field = '';
    atFieldStart = true;
  };
  const endRecord = () => {
    endField();
    if (recordHasContent) records.push({ line: recordLine, fields });
    fields = [];
    recordHasContent = false;
  };
  while (i < src.length) {
    const c = src[i]!;
    if (c === '"' && atFieldStart) {
      // Quoted field: runs to the next lone quote.
      recordHasContent = true;
      atFieldStart = false;
      const openLine = line;
      const openCol = i - lineStart + 1;
      i++;
      for (;;) {
        if (i >= src.length) throw new CsvSyntaxError(openLine, openCol, 'a quoted field is never closed');
        const q = src[i]!;
        if (q === '"') {
          if (src[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (q === '\n' || (q === '\r' && src[i + 1] !== '\n')) {
          line++;
          lineStart = i + 1;
        }
        field += q;
        i++;
      }
      const next = src[i];
      if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
        throw new CsvSyntaxError(
          line,
          i - lineStart + 1,
          'a closing quote must be followed by a comma or the end of the line',
        );
      }
      continue;
    }
    if (c === ',') {
      endField();
      recordHasContent = true;
      i++;
      continue;
    }
    if (c === '\r' || c === '\n') {
      endRecord();
      i += c === '\r' && src[i + 1] === '\n' ? 2 : 1;
      line++;
      lineStart = i;
      recordLine = line;
      continue;
    }
    if (c === '"')
      throw new CsvSyntaxError(
        line,
        i - lineStart + 1,
        'a quote inside an unquoted field (quote the whole field and double the quote)',
      );
    field += c;
    recordHasContent = true;
    atFieldStart = false;
    i++;
  }
  if (recordHasContent) endRecord();
  return records;
}
