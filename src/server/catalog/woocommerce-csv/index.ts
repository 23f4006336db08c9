/**
 * WooCommerce product CSV import and export for the catalog domain:
 *   parse.ts / write.ts   RFC 4180 CSV reading and writing
 *   columns.ts            WooCommerce's columns and value spellings
 *   map-import.ts         CSV rows → checked import items (row, column, reason for each problem)
 *   map-export.ts         catalog → CSV rows
 *   import.ts / export.ts the database side (a transaction per product)
 */
export { importWooCommerceCsv, type ImportOptions, type ImportReport } from './import.ts';
export { exportWooCommerceCsv } from './export.ts';
export type { RowIssue } from './map-import.ts';
export { parseCsv, CsvSyntaxError, type CsvRecord } from './parse.ts';
export { writeCsv } from './write.ts';
