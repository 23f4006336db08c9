/**
 * RFC 4180 CSV writing in WooCommerce's spelling: a UTF-8 byte-order mark (so spreadsheet programs read
 * the text as UTF-8), CRLF line ends, and a field quoted when it holds a comma, quote, line break, tab or
 * space (as PHP's fputcsv does), with inner quotes doubled.
 */

const NEEDS_QUOTES = /[",\r\n\t ]/;

export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function writeCsv(rows: string[][], options: { bom?: boolean } = {}): string {
  const body = rows.map((r) => r.map(csvField).join(',')).join('\r\n');
  return `${options.bom === false ? '' : '\uFEFF'}${body}\r\n`;
}
