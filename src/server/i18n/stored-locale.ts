/** The language stored with an order or an account (its `locale` column), for its mails and documents. */
import { DEFAULT_LOCALE, localeByCode, type LocaleCode } from '../../lib/i18n/locales.ts';

/** The row's locale; a value the shop does not speak (an older row, a hand edit) reads as English. */
export function storedLocale(row: { locale?: string | null }): LocaleCode {
  return localeByCode(row.locale ?? '')?.code ?? DEFAULT_LOCALE.code;
}
