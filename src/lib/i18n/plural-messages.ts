/**
 * Counted strings for pages and components rendered at build time (islands use createPluralLookup
 * from plural.ts with the strings they are given). A locale that lacks a counted string shows the
 * English forms, as translate() does for plain strings.
 *
 *   const tn = usePluralTranslations('de_DE');
 *   tn('product.reviewsLink', 1)  // "1 Bewertung"
 */
import { MESSAGES } from './index';
import { DEFAULT_LOCALE, localeByCode, type LocaleCode } from './locales';
import type { Params } from './lookup';
import { formatPlural, pluralForms, type PluralForms, type PluralLookup } from './plural';

/** The forms of `key` in the locale, else in English; null when neither has them. */
export function localePluralForms(code: LocaleCode, key: string): PluralForms | null {
  return pluralForms(MESSAGES[code] ?? {}, key) ?? pluralForms(MESSAGES[DEFAULT_LOCALE.code], key);
}

export function translatePlural(code: LocaleCode, key: string, count: number, params?: Params): string {
  const own = pluralForms(MESSAGES[code] ?? {}, key);
  const locale = own ? (localeByCode(code) ?? DEFAULT_LOCALE) : DEFAULT_LOCALE;
  const forms = own ?? pluralForms(MESSAGES[DEFAULT_LOCALE.code], key);
  return forms ? formatPlural(forms, locale.bcp47, count, params) : key;
}

export function usePluralTranslations(code: LocaleCode): PluralLookup {
  return (key, count, params) => translatePlural(code, key, count, params);
}
