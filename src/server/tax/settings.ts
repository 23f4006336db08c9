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
 *                         could not check is asked again on every change and at checkout. Within that time
 *                         the engine answers for a confirmed VAT ID from memory, whoever types it.
 *   VIES_CHECKS_PER_SESSION_PER_HOUR  VIES questions one shopper's session may cause per sliding hour
 *                         (default 10): a business types its VAT ID once or twice; more is someone trying
 *                         numbers, and each try costs a request to the EU's service.
 *   VIES_CHECKS_PER_IP_PER_HOUR       the same per client address (an IPv6 /64; default 30), so new
 *                         sessions do not lift the bound.
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
  VIES_CHECKS_PER_SESSION_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(10),
  VIES_CHECKS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(30),
});

export type VatSettings = {
  /** null: VIES is not asked. */
  viesUrl: string | null;
  viesTimeoutMs: number;
  recheckMs: number;
  /** VIES questions per session and per client address per sliding hour. */
  checksPerSessionPerHour?: number;
  checksPerIpPerHour?: number;
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
    checksPerSessionPerHour: e.VIES_CHECKS_PER_SESSION_PER_HOUR,
    checksPerIpPerHour: e.VIES_CHECKS_PER_IP_PER_HOUR,
  };
}
