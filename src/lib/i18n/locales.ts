/**
 * The six shop locales. `code` is the WordPress-style locale used for strings files
 * (locales/<code>.json), `path` is the URL prefix (empty for the default locale), `bcp47` is
 * what browsers send in Accept-Language and what Intl wants.
 */
export interface LocaleInfo {
  code: 'en_US' | 'de_DE' | 'es_ES' | 'fr_FR' | 'it_IT' | 'pt_BR';
  path: string;
  bcp47: string;
  label: string;
}

export const LOCALES: readonly LocaleInfo[] = [
  { code: 'en_US', path: 'en', bcp47: 'en-US', label: 'English' },
  { code: 'de_DE', path: 'de', bcp47: 'de-DE', label: 'Deutsch' },
  { code: 'es_ES', path: 'es', bcp47: 'es-ES', label: 'Español' },
  { code: 'fr_FR', path: 'fr', bcp47: 'fr-FR', label: 'Français' },
  { code: 'it_IT', path: 'it', bcp47: 'it-IT', label: 'Italiano' },
  { code: 'pt_BR', path: 'pt-br', bcp47: 'pt-BR', label: 'Português (Brasil)' },
] as const;

export const DEFAULT_LOCALE = LOCALES[0];

export type LocaleCode = LocaleInfo['code'];

export function localeByPath(path: string | undefined): LocaleInfo {
  if (!path) return DEFAULT_LOCALE;
  return LOCALES.find((l) => l.path === path.toLowerCase()) ?? DEFAULT_LOCALE;
}

export function localeByCode(code: string): LocaleInfo | undefined {
  return LOCALES.find((l) => l.code === code);
}

/** URL prefix for a locale: '' for English, '/de' for German. */
export function localePrefix(locale: LocaleInfo): string {
  return locale === DEFAULT_LOCALE ? '' : `/${locale.path}`;
}

/** getStaticPaths params for a `[...locale]` route: undefined for the default locale. */
export function localeStaticPaths() {
  return LOCALES.map((l) => ({ params: { locale: l === DEFAULT_LOCALE ? undefined : l.path } }));
}
