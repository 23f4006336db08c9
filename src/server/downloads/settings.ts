/**
 * Download settings (empty values count as unset).
 *   DOWNLOADS_DIR                where downloadable files are read from: one directory, or several
 *                                separated by the path delimiter (":" on Linux), searched in order.
 *                                Default: <MESHFRONT_CATALOG_DIR>/downloads (the seed catalog's files),
 *                                then <MESHFRONT_DATA_DIR>/downloads (uploads).
 *   DOWNLOAD_LINK_TTL_MINUTES    how long a signed download link works (default 15).
 */
import path from 'node:path';
import { z } from 'zod';
import type { ServerConfig } from '../config.ts';

export type DownloadSettings = { dirs: string[]; linkTtlSeconds: number };

const envSchema = z.object({
  DOWNLOADS_DIR: z.string().optional(),
  DOWNLOAD_LINK_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(15),
});

export function readDownloadSettings(
  config: ServerConfig,
  env: Record<string, string | undefined> = process.env,
): DownloadSettings {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success)
    throw new Error(
      `Invalid download settings:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`,
    );
  const dirs = parsed.data.DOWNLOADS_DIR
    ? parsed.data.DOWNLOADS_DIR.split(path.delimiter)
        .filter(Boolean)
        .map((d) => path.resolve(d))
    : [path.join(config.catalogDir, 'downloads'), path.join(config.dataDir, 'downloads')];
  return { dirs, linkTtlSeconds: parsed.data.DOWNLOAD_LINK_TTL_MINUTES * 60 };
}
