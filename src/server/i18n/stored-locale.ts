/** The language stored with an order or an account (its `locale` column), for its mails and documents. */
import { DEFAULT_LOCALE, localeByCode, localePrefix, type LocaleCode } from '../../lib/i18n/locales.ts';

/** The row's locale; a value the shop does not speak (an older row, a hand edit) reads as English. */
export function storedLocale(row: { locale?: string | null }): LocaleCode {
  return localeByCode(row.locale ?? '')?.code ?? DEFAULT_LOCALE.code;
}

/**
 * The storefront's path prefix of a language ('' for English, '/de' for German): a link in a mail opens
 * the page in the language the mail is written in.
 */
export function storefrontPrefix(locale: LocaleCode): string {
  return localePrefix(localeByCode(locale) ?? DEFAULT_LOCALE);
}
