/**
 * The catalog's texts in the shop's other languages. English (the default locale) lives in the ordinary
 * columns and fields and is the base; every other locale may carry its own value per field, stored as
 * `{ "de_DE": { "name": "…" }, … }` (a jsonb `translations` column, the `translations` object of a seed file).
 * A language or a field that is missing or empty falls back to English, field by field, so a half-translated
 * product still reads whole. Slugs, SKUs and term slugs are never translated: one URL and one cart key per
 * product across languages.
 */
import { z } from 'zod';
import { DEFAULT_LOCALE, LOCALES, type LocaleCode } from '../../lib/i18n/locales.ts';

/** The locales a catalog text can be translated into: every shop locale but English, the base. */
export const TRANSLATION_LOCALES = LOCALES.filter((l) => l !== DEFAULT_LOCALE).map((l) => l.code) as Exclude<
  LocaleCode,
  'en_US'
>[];
export type TranslationLocale = (typeof TRANSLATION_LOCALES)[number];

export type Translations<T> = Partial<Record<TranslationLocale, T>>;

export type ProductTexts = { name?: string; shortDescription?: string; description?: string };
/** Categories, tags and global attribute terms. */
export type TermTexts = { name?: string; description?: string };
export type AttributeTexts = { name?: string };
/** A product's local attribute: its name and its values, in the order of the English options. */
export type LocalAttributeTexts = { name?: string; options?: string[] };

/**
 * A zod schema for a `translations` object: only the shop's other locales, only the given fields, so a typo
 * ("de-DE", "titel") is an error naming the file and the path rather than a text that silently never shows.
 */
export function translationsSchema<S extends z.ZodRawShape>(fields: S) {
  const one = z.strictObject(fields, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')}: a translation has ${Object.keys(fields).join(', ')}`
        : undefined,
  });
  const shape = Object.fromEntries(TRANSLATION_LOCALES.map((l) => [l, one.optional()])) as Record<
    TranslationLocale,
    z.ZodOptional<typeof one>
  >;
  return z
    .strictObject(shape, {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `unknown locale ${issue.keys.map((k) => `"${k}"`).join(', ')}: translations are keyed by ${TRANSLATION_LOCALES.join(', ')} (English is the base)`
          : undefined,
    })
    .default({});
}

/** The value of `field` for `locale`: its translation when there is a non-empty one, else the English base. */
export function localized<T extends Record<string, unknown>, K extends keyof T & string>(
  base: string,
  translations: Translations<T> | undefined,
  locale: LocaleCode,
  field: K,
): string {
  if (locale === DEFAULT_LOCALE.code || !translations) return base;
  const value = translations[locale as TranslationLocale]?.[field];
  return typeof value === 'string' && value.trim() !== '' ? value : base;
}

/** A local attribute's value in `locale`: the translation at the same position as the English option. */
export function localizedOption(
  options: string[],
  translations: Translations<LocalAttributeTexts> | undefined,
  locale: LocaleCode,
  value: string,
): string {
  if (locale === DEFAULT_LOCALE.code || !translations) return value;
  const i = options.indexOf(value);
  const t = i < 0 ? undefined : translations[locale as TranslationLocale]?.options?.[i];
  return t?.trim() ? t : value;
}

/**
 * Drops empty fields and empty locales: what is stored and written back holds only real translations, so
 * "empty = English" needs no second spelling.
 */
export function compactTranslations<T extends Record<string, unknown>>(
  translations: Translations<T> | null | undefined,
): Translations<T> {
  const out: Translations<T> = {};
  for (const locale of TRANSLATION_LOCALES) {
    const fields = translations?.[locale];
    if (!fields) continue;
    const kept = Object.fromEntries(
      Object.entries(fields).filter(([, v]) =>
        Array.isArray(v)
          ? v.some((x) => typeof x === 'string' && x.trim() !== '')
          : typeof v === 'string' && v.trim() !== '',
      ),
    ) as T;
    if (Object.keys(kept).length) out[locale] = kept;
  }
  return out;
}

/** Every translated text of a record, for search: a shopper finds "Mütze" on the German shop. */
export function translatedTexts(translations: Translations<Record<string, unknown>> | undefined): string[] {
  const out: string[] = [];
  for (const fields of Object.values(translations ?? {}))
    for (const v of Object.values(fields ?? {})) if (typeof v === 'string') out.push(v);
  return out;
}

/** One locale's texts as the admin API lists them: { locale: "de_DE", name, shortDescription, description }. */
export type TranslationEntry = { locale: string } & Record<string, unknown>;

/** The stored record as a list in the shop's locale order (the admin API's shape). */
export function translationList(translations: Translations<Record<string, unknown>> | undefined): TranslationEntry[] {
  return TRANSLATION_LOCALES.filter((l) => translations?.[l]).map((locale) => ({ locale, ...translations![locale] }));
}

/** The admin API's list back into a record; null fields are left out (empty = English). */
export function translationRecord(list: readonly TranslationEntry[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const { locale, ...fields } of list)
    out[locale] = { ...out[locale], ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v != null)) };
  return out;
}
