/**
 * Build-time translation for pages and components. Strings live in locales/<code>.json as flat
 * dotted keys; English is the fallback so a missing translation shows English, never a blank.
 * Islands get a subset through pickStrings() and look it up with createLookup() (lookup.ts).
 */
import en_US from '../../../locales/en_US.json' with { type: 'json' };
import de_DE from '../../../locales/de_DE.json' with { type: 'json' };
import es_ES from '../../../locales/es_ES.json' with { type: 'json' };
import fr_FR from '../../../locales/fr_FR.json' with { type: 'json' };
import it_IT from '../../../locales/it_IT.json' with { type: 'json' };
import pt_BR from '../../../locales/pt_BR.json' with { type: 'json' };
import { interpolate, type Params, type Strings } from './lookup';
import { DEFAULT_LOCALE, localeByCode, type LocaleCode } from './locales';

export const MESSAGES: Readonly<Record<LocaleCode, Strings>> = { en_US, de_DE, es_ES, fr_FR, it_IT, pt_BR };

export function translate(code: LocaleCode, key: string, params?: Params): string {
  const template = MESSAGES[code]?.[key] ?? MESSAGES[DEFAULT_LOCALE.code][key] ?? key;
  return interpolate(template, params);
}

export function useTranslations(code: LocaleCode) {
  return (key: string, params?: Params) => translate(code, key, params);
}

/** The strings an island needs, e.g. pickStrings('de_DE', ['cart.', 'alert.']). English fills gaps. */
export function pickStrings(code: LocaleCode, prefixes: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const source of [MESSAGES[DEFAULT_LOCALE.code], MESSAGES[code]]) {
    for (const [key, value] of Object.entries(source ?? {})) {
      if (prefixes.some((p) => key.startsWith(p))) out[key] = value;
    }
  }
  return out;
}

/** 'November 22, 2026' / '22. November 2026': long month, day and year in the locale's order. */
export function formatDate(date: Date | string | number, code: LocaleCode): string {
  const locale = localeByCode(code) ?? DEFAULT_LOCALE;
  return new Intl.DateTimeFormat(locale.bcp47, { year: 'numeric', month: 'long', day: 'numeric' }).format(
    new Date(date),
  );
}

export { createLookup } from './lookup';
export type { Params, Strings } from './lookup';
