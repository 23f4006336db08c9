/**
 * The per-language texts of the product and category forms: one field per shop language other than English
 * and per text ("tr-de_DE-name"), read into the admin API's `translations` list. An empty field means the
 * shop shows the English text in that language, so the editor translates as much as is ready.
 */
import { LOCALES, DEFAULT_LOCALE } from '../../../lib/i18n/locales.ts';
import type { AdminTranslationInput } from '../../../graphql/generated/admin-schema.ts';
import type { FormFields } from './forms.ts';

export type TranslatedField = { key: 'name' | 'shortDescription' | 'description'; label: string; max: number };

/** The languages an editor translates into, as the forms list them. */
export const TRANSLATION_LANGUAGES = LOCALES.filter((l) => l !== DEFAULT_LOCALE).map((l) => ({
  code: l.code,
  label: l.label,
}));

export const fieldName = (locale: string, key: string) => `tr-${locale}-${key}`;

/** The posted translations as adminCreate/Update input (every language, empty fields included: they clear). */
export function translationsInput(f: FormFields, fields: readonly TranslatedField[]): AdminTranslationInput[] {
  return TRANSLATION_LANGUAGES.map(({ code, label }) => {
    const entry: AdminTranslationInput = { locale: code };
    for (const field of fields)
      entry[field.key] = f.text(fieldName(code, field.key), `${field.label} (${label})`, { max: field.max }) ?? '';
    return entry;
  });
}

/** What the translation fields show: the stored texts or what was posted. */
export function translationValues(
  stored: readonly ({ locale: string } & Partial<Record<TranslatedField['key'], string | null>>)[] | null,
  posted: URLSearchParams | null,
  fields: readonly TranslatedField[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { code } of TRANSLATION_LANGUAGES)
    for (const field of fields) {
      const name = fieldName(code, field.key);
      out[name] = posted ? (posted.get(name) ?? '') : (stored?.find((t) => t.locale === code)?.[field.key] ?? '');
    }
  return out;
}

export const PRODUCT_TRANSLATED_FIELDS: readonly TranslatedField[] = [
  { key: 'name', label: 'Name', max: 200 },
  { key: 'shortDescription', label: 'Short description', max: 5_000 },
  { key: 'description', label: 'Description', max: 100_000 },
];
export const CATEGORY_TRANSLATED_FIELDS: readonly TranslatedField[] = [
  { key: 'name', label: 'Name', max: 200 },
  { key: 'description', label: 'Description', max: 10_000 },
];
