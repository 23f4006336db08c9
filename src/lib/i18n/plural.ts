/**
 * Counted strings: "1 item", "2 items", "1 Bewertung", "2 Bewertungen". A counted string is stored as
 * one key per plural category the language uses, with the categories `Intl.PluralRules` returns
 * (zero, one, two, few, many, other):
 *
 *   "cart.itemCount.one": "{count} item in your cart",
 *   "cart.itemCount.other": "{count} items in your cart",
 *
 *   const tn = createPluralLookup(strings, 'fr-FR');
 *   tn('cart.itemCount', 0)   // "0 article dans votre panier": French (and Brazilian Portuguese) say 0 in the singular
 *
 * `other` is required; a category the file does not spell out falls back to it. {count} is the count
 * written the locale's way (1.000 in German); other placeholders come from `params`. No i18n runtime
 * ships with it: islands and page scripts use the same few lines.
 */
import { interpolate, type Params, type Strings } from './lookup';

/** The forms of one counted string, by plural category. */
export type PluralForms = Readonly<Partial<Record<Intl.LDMLPluralRule, string>>> & { readonly other: string };

export type PluralLookup = (key: string, count: number, params?: Params) => string;

const CATEGORIES: readonly Intl.LDMLPluralRule[] = ['zero', 'one', 'two', 'few', 'many', 'other'];

const rulesByLocale = new Map<string, Intl.PluralRules>();
const numbersByLocale = new Map<string, Intl.NumberFormat>();

function rules(locale: string): Intl.PluralRules {
  const found = rulesByLocale.get(locale) ?? new Intl.PluralRules(locale);
  rulesByLocale.set(locale, found);
  return found;
}

function numbers(locale: string): Intl.NumberFormat {
  const found = numbersByLocale.get(locale) ?? new Intl.NumberFormat(locale);
  numbersByLocale.set(locale, found);
  return found;
}

/** The plural category of `count` in `locale` (a BCP 47 tag such as 'pt-BR'). */
export function pluralCategory(locale: string, count: number): Intl.LDMLPluralRule {
  return rules(locale).select(count);
}

/** The forms of `key` in `strings`, or null when it has no `other` form (not a counted string there). */
export function pluralForms(strings: Strings, key: string): PluralForms | null {
  const other = strings[`${key}.other`];
  if (other === undefined) return null;
  const forms: Partial<Record<Intl.LDMLPluralRule, string>> = {};
  for (const category of CATEGORIES) {
    const form = strings[`${key}.${category}`];
    if (form !== undefined) forms[category] = form;
  }
  return { ...forms, other };
}

/** The form for `count`, with {count} (written the locale's way) and `params` filled in. */
export function formatPlural(forms: PluralForms, locale: string, count: number, params?: Params): string {
  const template = forms[pluralCategory(locale, count)] ?? forms.other;
  return interpolate(template, { count: numbers(locale).format(count), ...params });
}

/**
 * A lookup for counted strings over an island's strings (pickStrings picks every form with its
 * prefix). A key without forms returns the key, so a gap is visible, as createLookup does.
 */
export function createPluralLookup(strings: Strings, locale: string): PluralLookup {
  return (key, count, params) => {
    const forms = pluralForms(strings, key);
    return forms ? formatPlural(forms, locale, count, params) : key;
  };
}
