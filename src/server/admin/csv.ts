/**
 * CSV for operators' exports (RFC 4180: CRLF line ends, fields quoted when needed, quotes doubled).
 * Cells that a spreadsheet would run as a formula (starting with = + - @, tab or CR) get a leading
 * apostrophe: exported data is shopper-written text and must not execute when opened.
 */
export type CsvValue = string | number | boolean | Date | null | undefined;

function cell(value: CsvValue): string {
  let s = value === null || value === undefined ? '' : value instanceof Date ? value.toISOString() : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(header: string[], rows: CsvValue[][]): string {
  return `${[header, ...rows].map((r) => r.map(cell).join(',')).join('\r\n')}\r\n`;
}
