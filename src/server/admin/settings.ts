/**
 * Store-operations settings, from the environment (empty values count as unset).
 *   ADMIN_UPLOADS_DIR         where uploaded product images are stored (default var/uploads, the
 *                             directory /media/uploads/ serves); images go to <dir>/catalog/.
 *   ADMIN_MAX_UPLOAD_BYTES    largest image or downloadable file accepted through the admin API
 *                             (default 5 MB; larger downloadable files are copied into
 *                             <MESHFRONT_DATA_DIR>/downloads and registered by file name).
 *   ADMIN_LOW_STOCK_AMOUNT    the low-stock threshold for products without their own (default 2, as WooCommerce).
 */
import path from 'node:path';
import { z } from 'zod';

export type AdminSettings = { uploadsDir: string; maxUploadBytes: number; lowStockAmount: number };

const envSchema = z.object({
  ADMIN_UPLOADS_DIR: z.string().default('var/uploads'),
  ADMIN_MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(100 * 1024 * 1024)
    .default(5 * 1024 * 1024),
  ADMIN_LOW_STOCK_AMOUNT: z.coerce.number().int().min(0).max(1_000_000).default(2),
});

export function readAdminSettings(env: Record<string, string | undefined> = process.env): AdminSettings {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success)
    throw new Error(
      `Invalid store-operations settings:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`,
    );
  return {
    uploadsDir: path.resolve(parsed.data.ADMIN_UPLOADS_DIR),
    maxUploadBytes: parsed.data.ADMIN_MAX_UPLOAD_BYTES,
    lowStockAmount: parsed.data.ADMIN_LOW_STOCK_AMOUNT,
  };
}
