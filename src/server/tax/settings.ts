/**
 * Settings of the VAT ID check, read from the environment and validated with zod (empty values count as
 * unset). The tax rates and price settings themselves are the shop's (shop/settings.ts).
 *
 *   VIES_URL              the EU Commission's VIES REST endpoint that checks a VAT number (default
 *                         https://ec.europa.eu/taxation_customs/vies/rest-api/check-vat-number; tests point
 *                         it at a local stand-in). `off` checks the format only: every well-formed VAT ID
 *                         is then taken as unverified, and its orders are flagged for the operator.
 *   VIES_TIMEOUT_MS       how long to wait for VIES (default 5000). VIES asks the member state's own
 *                         register and is often slow or down; an order does not wait longer than this.
 *   VIES_RECHECK_HOURS    a VAT ID VIES confirmed is asked again after this many hours (default 24); one VIES
 *                         could not check is asked again on every change and at checkout.
 */
import { z } from 'zod';

export const DEFAULT_VIES_URL = 'https://ec.europa.eu/taxation_customs/vies/rest-api/check-vat-number';

const envSchema = z.object({
  VIES_URL: z
    .string()
    .refine((v) => v === 'off' || /^https?:\/\/[^\s]+$/.test(v), 'an http(s) URL or off')
    .default(DEFAULT_VIES_URL),
  VIES_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  VIES_RECHECK_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 30)
    .default(24),
});

export type VatSettings = {
  /** null: VIES is not asked. */
  viesUrl: string | null;
  viesTimeoutMs: number;
  recheckMs: number;
};

export class VatSettingsError extends Error {
  override name = 'VatSettingsError';
}

export function readVatSettings(source: Record<string, string | undefined> = process.env): VatSettings {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success)
    throw new VatSettingsError(
      `Invalid VAT settings:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`,
    );
  const e = parsed.data;
  return {
    viesUrl: e.VIES_URL === 'off' ? null : e.VIES_URL,
    viesTimeoutMs: e.VIES_TIMEOUT_MS,
    recheckMs: e.VIES_RECHECK_HOURS * 3_600_000,
  };
}
