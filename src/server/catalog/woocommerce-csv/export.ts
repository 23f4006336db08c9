/** Exports the whole catalog (every status) as a WooCommerce product CSV, read fresh from the database. */
import type { DbOrTx } from '../../db/connection.ts';
import { loadSnapshot } from '../snapshot.ts';
import { exportRows, type ExportOptions } from './map-export.ts';
import { writeCsv } from './write.ts';

export async function exportWooCommerceCsv(
  db: DbOrTx,
  options: ExportOptions,
): Promise<{ csv: string; products: number; rows: number }> {
  const snapshot = await loadSnapshot(db, { catalogVersion: 0, stockVersion: 0 });
  const rows = exportRows(snapshot, options);
  return { csv: writeCsv(rows), products: snapshot.products.length, rows: rows.length - 1 };
}
