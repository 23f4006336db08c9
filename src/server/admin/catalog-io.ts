/**
 * Catalog CSV import and export with the engine's settings: what the CLI (`npm run shop -- import|export`)
 * and the admin call. It lives with the admin because it joins two domains' settings: the catalog's CSV
 * format and the downloads' directories. Images are looked up in MESHFRONT_CATALOG_DIR/images, downloads in DOWNLOADS_DIR, image
 * URLs are written under PUBLIC_SITE_URL; after an import this process's catalog cache is dropped (other
 * processes follow the catalog version the import bumped).
 */
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/connection.ts';
import { readDownloadSettings } from '../downloads/settings.ts';
import type { CatalogService } from '../catalog/service.ts';
import { exportWooCommerceCsv } from '../catalog/woocommerce-csv/export.ts';
import { importWooCommerceCsv, type ImportReport } from '../catalog/woocommerce-csv/import.ts';

export type CatalogIoDeps = { db: Database; config: ServerConfig; catalog: CatalogService };

export async function importCatalogCsv(
  deps: CatalogIoDeps,
  text: string,
  options: { dryRun?: boolean } = {},
): Promise<ImportReport> {
  const report = await importWooCommerceCsv(deps.db, text, {
    catalogDir: deps.config.catalogDir,
    downloadDirs: readDownloadSettings(deps.config).dirs,
    dryRun: options.dryRun,
  });
  if (!options.dryRun) deps.catalog.invalidate();
  return report;
}

export async function exportCatalogCsv(deps: CatalogIoDeps, options: { siteUrl?: string } = {}) {
  return exportWooCommerceCsv(deps.db, {
    siteUrl: options.siteUrl ?? process.env.PUBLIC_SITE_URL ?? 'http://localhost:4321',
  });
}

/** The report as lines for a terminal or a log: a summary, then each problem as "row N, column: reason". */
export function formatImportReport(r: ImportReport): string {
  const lines = [
    `${r.dryRun ? 'Dry run (nothing saved): would import' : 'Imported'} ${r.created} new and ${r.updated} updated products, ${r.variationsCreated} new and ${r.variationsUpdated} updated variations from ${r.rows} rows.`,
  ];
  if (r.errors.length) {
    lines.push(`${r.errors.length} problem${r.errors.length === 1 ? '' : 's'} (these rows were not imported):`);
    for (const e of r.errors) lines.push(`  row ${e.row}${e.column ? `, ${e.column}` : ''}: ${e.message}`);
  }
  if (r.warnings.length) {
    lines.push(`${r.warnings.length} warning${r.warnings.length === 1 ? '' : 's'} (imported without this):`);
    for (const w of r.warnings) lines.push(`  row ${w.row}${w.column ? `, ${w.column}` : ''}: ${w.message}`);
  }
  return lines.join('\n');
}
