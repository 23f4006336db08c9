/**
 * A business customer's VAT identification number: cleaned up, checked for its country's format and check
 * digits with jsvat (a maintained, dependency-free library that knows every EU member state's rules; the
 * storefront runs the same check in the browser), and tied to the billing country, as VAT law ties a
 * business to the member state that issued its number. Only EU member states' numbers are taken: the shop
 * charges no EU VAT elsewhere, so a number would change nothing there.
 *
 * Greece's numbers carry the prefix EL, not its ISO code GR; a number typed without a prefix gets the
 * billing country's.
 */
import { ShopperError } from '../i18n/shopper-error.ts';
import {
  austria,
  belgium,
  bulgaria,
  checkVAT,
  croatia,
  cyprus,
  czechRepublic,
  denmark,
  estonia,
  finland,
  france,
  germany,
  greece,
  hungary,
  ireland,
  italy,
  latvia,
  lithuania,
  luxembourg,
  malta,
  netherlands,
  poland,
  portugal,
  romania,
  slovakiaRepublic,
  slovenia,
  spain,
  sweden,
  type Country,
} from 'jsvat';

/** jsvat's rules of each EU member state, by ISO country code. */
const RULES: Record<string, Country> = {
  AT: austria,
  BE: belgium,
  BG: bulgaria,
  HR: croatia,
  CY: cyprus,
  CZ: czechRepublic,
  DK: denmark,
  EE: estonia,
  FI: finland,
  FR: france,
  DE: germany,
  GR: greece,
  HU: hungary,
  IE: ireland,
  IT: italy,
  LV: latvia,
  LT: lithuania,
  LU: luxembourg,
  MT: malta,
  NL: netherlands,
  PL: poland,
  PT: portugal,
  RO: romania,
  SK: slovakiaRepublic,
  SI: slovenia,
  ES: spain,
  SE: sweden,
};

/** The VAT prefix of an EU member state (EL for Greece), or null outside the EU. */
export function vatPrefixOf(country: string): string | null {
  if (!(country in RULES)) return null;
  return country === 'GR' ? 'EL' : country;
}

/** The member state a VAT prefix stands for (EL → GR), or null. */
function countryOfPrefix(prefix: string): string | null {
  if (prefix === 'EL') return 'GR';
  return prefix in RULES && prefix !== 'GR' ? prefix : null;
}

/** A VAT ID that passed the format check: `vatId` is what the shop stores and prints ("DE136695976"). */
export type VatId = {
  vatId: string;
  /** ISO code of the member state that issued it (GR for an EL number). */
  country: string;
  /** The prefix VIES expects (EL for Greece). */
  prefix: string;
  /** The number without its prefix, as VIES expects it. */
  number: string;
};

/** Why a VAT ID was refused; `code` is the GraphQL error code the storefront translates. */
export type VatIdProblemCode =
  | 'VAT_ID_INVALID'
  | 'VAT_ID_COUNTRY_MISMATCH'
  | 'VAT_ID_NOT_EU'
  | 'VAT_ID_REJECTED'
  | 'VAT_ID_TOO_MANY_CHECKS';

/** A refusal with a message for the shopper (the storefront shows it in the shopper's language by `code`). */
/** A refused VAT ID keeps its own code: the storefront says why in the shopper's language. */
export class VatIdError extends ShopperError {
  override name = 'VatIdError';
  declare readonly code: VatIdProblemCode;
  constructor(message: string, code: VatIdProblemCode) {
    super(message, code);
  }
}

export const vatIdMessages = {
  invalid: (vatId: string) =>
    `${vatId} is not a valid VAT ID. Please check it (it starts with the country code, e.g. DE123456789).`,
  countryMismatch: (vatId: string, country: string) =>
    `The VAT ID ${vatId} is not one of the billing country (${country}). Please enter the VAT ID your business has in that country.`,
  notEu: () => 'A VAT ID can only be entered for a billing address in the European Union.',
  rejected: (vatId: string) =>
    `The VAT ID ${vatId} is not valid according to the EU's VIES service. Please check it, or remove it to order with VAT.`,
  tooManyChecks: (minutes: number) =>
    `Too many VAT IDs were checked from here. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or order without a VAT ID.`,
};

/** Spaces, dots, dashes and slashes people type between the digits; letters upper-cased. */
export function cleanVatId(raw: string): string {
  return raw.toUpperCase().replace(/[\s.\-/_,]/g, '');
}

/**
 * Parses a VAT ID for a billing country ('' when none is known yet: then the number must carry its
 * prefix). Throws VatIdError when it is malformed, fails its check digits, belongs to another country
 * than the billing address, or the billing country is outside the EU.
 */
export function parseVatId(raw: string, billingCountry: string): VatId {
  const cleaned = cleanVatId(raw);
  if (!cleaned) throw new VatIdError(vatIdMessages.invalid(raw.trim()), 'VAT_ID_INVALID');
  const billing = billingCountry.trim().toUpperCase();
  if (billing && !vatPrefixOf(billing)) throw new VatIdError(vatIdMessages.notEu(), 'VAT_ID_NOT_EU');
  // A number typed with its prefix keeps it (GR typed for Greece means EL); one without gets the billing
  // country's.
  const typed = /^[A-Z]{2}/.test(cleaned) ? cleaned.slice(0, 2) : null;
  const typedCountry = typed === 'GR' ? 'GR' : typed ? countryOfPrefix(typed) : null;
  let country: string;
  let number: string;
  if (typedCountry) {
    country = typedCountry;
    number = cleaned.slice(2);
  } else if (billing) {
    country = billing;
    number = cleaned;
  } else throw new VatIdError(vatIdMessages.invalid(cleaned), 'VAT_ID_INVALID');
  const prefix = vatPrefixOf(country)!;
  const vatId = `${prefix}${number}`;
  if (!/^[A-Z0-9+*]{2,14}$/.test(number)) throw new VatIdError(vatIdMessages.invalid(vatId), 'VAT_ID_INVALID');
  if (billing && country !== billing)
    throw new VatIdError(vatIdMessages.countryMismatch(vatId, billing), 'VAT_ID_COUNTRY_MISMATCH');
  // jsvat knows Greece's numbers by EL.
  if (!checkVAT(vatId, [RULES[country]!]).isValid) throw new VatIdError(vatIdMessages.invalid(vatId), 'VAT_ID_INVALID');
  return { vatId, country, prefix, number };
}
