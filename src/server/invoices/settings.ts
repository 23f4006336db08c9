/**
 * Settings of invoices and credit notes, read from the environment and validated with zod (empty values
 * count as unset). What they say is copied into each document when it is issued: a change applies to
 * documents issued afterwards only.
 *
 *   INVOICE_SELLER_NAME          the seller's registered name (default "Meshfront").
 *   INVOICE_SELLER_ADDRESS       the seller's postal address without the country, lines separated by "|" or
 *                                new lines ("Funkweg 7|10115 Berlin").
 *   INVOICE_SELLER_COUNTRY       the country of that address (ISO 3166-1 alpha-2; default the shop's country,
 *                                SHOP_BASE_COUNTRY). Printed as its name in each document's language, like
 *                                the buyer's; a last address line that names it already is left out, so
 *                                "…|Germany" does not print "Germany" on a German invoice.
 *   INVOICE_SELLER_VAT_ID        the seller's VAT ID (USt-IdNr.), printed on every document.
 *   INVOICE_SELLER_TAX_NUMBER    the seller's tax number (Steuernummer), printed when set.
 *   INVOICE_SELLER_EMAIL         the address printed in the seller's block (default: the shop's sender, MAIL_FROM).
 *   INVOICE_SELLER_REGISTRATION  commercial register entry, managing directors … (one footer line).
 *   INVOICE_SELLER_BANK          bank details (one footer line).
 *   INVOICE_NUMBER_FORMAT        the invoice number: {year} and {number:N} (the sequence, N digits with
 *                                leading zeros) or {number}; default "{year}-{number:6}" → 2026-000123.
 *   CREDIT_NOTE_NUMBER_FORMAT    the credit note number, same placeholders; default "CN-{year}-{number:6}".
 *   INVOICE_TIME_ZONE            the time zone of the documents' dates and of the series' calendar year
 *                                (default Europe/Berlin).
 */
import { z } from 'zod';
import { LOCALES } from '../../lib/i18n/locales.ts';

export type SellerDetails = {
  name: string;
  addressLines: string[];
  /** ISO 3166-1 alpha-2; printed as the country's name in the document's language. */
  country: string;
  vatId: string;
  taxNumber: string;
  email: string;
  registration: string;
  bank: string;
};

export type InvoiceSettings = {
  seller: SellerDetails;
  invoiceNumberFormat: string;
  creditNoteNumberFormat: string;
  timeZone: string;
};

export class InvoiceSettingsError extends Error {
  override name = 'InvoiceSettingsError';
}

const line = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(v), 'no control characters');
const numberFormat = z
  .string()
  .max(40)
  .refine((v) => /\{number(?::\d)?\}/.test(v), 'must contain {number} or {number:N}')
  .refine((v) => /^[A-Za-z0-9 ._/{}:-]+$/.test(v), 'letters, digits, spaces, . _ / - and the placeholders only');
const timeZone = z.string().refine((v) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: v });
    return true;
  } catch {
    return false;
  }
}, 'an IANA time zone such as Europe/Berlin');

const envSchema = z.object({
  INVOICE_SELLER_NAME: line(200).default('Meshfront'),
  INVOICE_SELLER_ADDRESS: line(500).default(''),
  INVOICE_SELLER_COUNTRY: z
    .string()
    .regex(/^[A-Z]{2}$/, 'a two-letter country code (ISO 3166-1 alpha-2) such as DE')
    .optional(),
  INVOICE_SELLER_VAT_ID: z
    .string()
    .regex(/^[A-Z]{2}[A-Z0-9+*]{2,13}$/, 'a VAT ID with its country prefix, such as DE123456789')
    .optional(),
  INVOICE_SELLER_TAX_NUMBER: line(40).default(''),
  INVOICE_SELLER_EMAIL: line(254).default(''),
  INVOICE_SELLER_REGISTRATION: line(300).default(''),
  INVOICE_SELLER_BANK: line(300).default(''),
  INVOICE_NUMBER_FORMAT: numberFormat.default('{year}-{number:6}'),
  CREDIT_NOTE_NUMBER_FORMAT: numberFormat.default('CN-{year}-{number:6}'),
  INVOICE_TIME_ZONE: timeZone.default('Europe/Berlin'),
});

/**
 * Whether an address line names `country` (its code, or its name in English or one of the shop's
 * languages): the country is printed from its code, in the document's language.
 */
function namesCountry(line: string, country: string): boolean {
  const given = line.trim().toLocaleLowerCase('en');
  if (given === country.toLowerCase()) return true;
  return ['en', ...LOCALES.map((l) => l.bcp47)].some((tag) => {
    try {
      return new Intl.DisplayNames([tag], { type: 'region' }).of(country)?.toLocaleLowerCase('en') === given;
    } catch {
      return false;
    }
  });
}

/**
 * `fallbackEmail`: the seller's address when INVOICE_SELLER_EMAIL is unset (the shop's sender);
 * `baseCountry`: the seller's country when INVOICE_SELLER_COUNTRY is unset (the shop's country).
 */
export function readInvoiceSettings(
  source: Record<string, string | undefined> = process.env,
  fallbackEmail = '',
  baseCountry = 'DE',
): InvoiceSettings {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v.trim() !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success)
    throw new InvoiceSettingsError(
      `Invalid invoice settings:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`,
    );
  const e = parsed.data;
  if (e.INVOICE_NUMBER_FORMAT === e.CREDIT_NOTE_NUMBER_FORMAT)
    throw new InvoiceSettingsError(
      'Invalid invoice settings:\n  CREDIT_NOTE_NUMBER_FORMAT: must differ from INVOICE_NUMBER_FORMAT (the two series share no numbers)',
    );
  const country = e.INVOICE_SELLER_COUNTRY ?? baseCountry;
  const addressLines = e.INVOICE_SELLER_ADDRESS.split(/\||\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  if (addressLines.length > 1 && namesCountry(addressLines.at(-1)!, country)) addressLines.pop();
  return {
    seller: {
      name: e.INVOICE_SELLER_NAME.trim(),
      addressLines,
      country,
      vatId: e.INVOICE_SELLER_VAT_ID ?? '',
      taxNumber: e.INVOICE_SELLER_TAX_NUMBER.trim(),
      email: e.INVOICE_SELLER_EMAIL.trim() || fallbackEmail,
      registration: e.INVOICE_SELLER_REGISTRATION.trim(),
      bank: e.INVOICE_SELLER_BANK.trim(),
    },
    invoiceNumberFormat: e.INVOICE_NUMBER_FORMAT,
    creditNoteNumberFormat: e.CREDIT_NOTE_NUMBER_FORMAT,
    timeZone: e.INVOICE_TIME_ZONE,
  };
}

/** "{year}-{number:6}" with 2026 and 123 → "2026-000123". */
export function formatDocumentNumber(format: string, year: number, sequence: number): string {
  return format
    .replace(/\{year\}/g, String(year))
    .replace(/\{number(?::(\d))?\}/g, (_, digits: string | undefined) =>
      String(sequence).padStart(Number(digits ?? 0), '0'),
    );
}
