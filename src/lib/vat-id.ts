/**
 * The storefront's side of a business customer's VAT ID: which billing countries ask for one (EU member
 * states: elsewhere the shop charges no EU VAT), a quick check of its shape before anything is sent, and
 * the message keys of the engine's refusals. The engine checks each country's format and check digits
 * (jsvat) and asks the EU's VIES service (src/server/tax/vat-id.ts, vat-check.ts); this only spares the
 * shopper a round trip, and keeps jsvat out of the checkout's JavaScript.
 */

/** EU member states by ISO code, with their VAT prefix (Greece: EL). */
const VAT_PREFIX: Readonly<Record<string, string>> = {
  AT: 'AT',
  BE: 'BE',
  BG: 'BG',
  HR: 'HR',
  CY: 'CY',
  CZ: 'CZ',
  DK: 'DK',
  EE: 'EE',
  FI: 'FI',
  FR: 'FR',
  DE: 'DE',
  GR: 'EL',
  HU: 'HU',
  IE: 'IE',
  IT: 'IT',
  LV: 'LV',
  LT: 'LT',
  LU: 'LU',
  MT: 'MT',
  NL: 'NL',
  PL: 'PL',
  PT: 'PT',
  RO: 'RO',
  SK: 'SK',
  SI: 'SI',
  ES: 'ES',
  SE: 'SE',
};

const PREFIXES = new Set([...Object.values(VAT_PREFIX), 'GR']);

/** Whether a billing country can have a VAT ID the shop takes (an EU member state). */
export function asksForVatId(country: string): boolean {
  return country in VAT_PREFIX;
}

/** The engine's refusal codes (GraphQL extensions.code) and the message each one shows. */
export const VAT_ID_ERROR_KEYS: Readonly<Record<string, string>> = {
  VAT_ID_INVALID: 'checkout.error.vatIdInvalid',
  VAT_ID_COUNTRY_MISMATCH: 'checkout.error.vatIdCountry',
  VAT_ID_NOT_EU: 'checkout.error.vatIdNotEu',
  VAT_ID_REJECTED: 'checkout.error.vatIdRejected',
  VAT_ID_TOO_MANY_CHECKS: 'checkout.error.vatIdTooManyChecks',
};

/**
 * The message key for a VAT ID typed for a billing country, or null when it may go to the engine: it must
 * be of that country (a prefix it carries must be the country's), hold 2–14 letters or digits after the
 * prefix, and the country must be an EU member state.
 */
export function vatIdProblem(raw: string, billingCountry: string): string | null {
  const cleaned = raw.toUpperCase().replace(/[\s.\-/_,]/g, '');
  if (!cleaned) return null;
  const prefix = VAT_PREFIX[billingCountry];
  if (!prefix) return VAT_ID_ERROR_KEYS.VAT_ID_NOT_EU!;
  const typed = cleaned.slice(0, 2);
  const hasPrefix = /^[A-Z]{2}/.test(cleaned) && PREFIXES.has(typed);
  if (hasPrefix && typed !== prefix && !(prefix === 'EL' && typed === 'GR'))
    return VAT_ID_ERROR_KEYS.VAT_ID_COUNTRY_MISMATCH!;
  const number = hasPrefix ? cleaned.slice(2) : cleaned;
  return /^[A-Z0-9+*]{2,14}$/.test(number) ? null : VAT_ID_ERROR_KEYS.VAT_ID_INVALID!;
}

/** The message key of an engine error about a VAT ID (from GraphQLRequestError.errors), or null. */
export function vatIdErrorKey(error: unknown): string | null {
  const errors = (error as { errors?: readonly { extensions?: { code?: unknown } | null }[] } | null)?.errors;
  const code = errors?.[0]?.extensions?.code;
  return typeof code === 'string' ? (VAT_ID_ERROR_KEYS[code] ?? null) : null;
}
