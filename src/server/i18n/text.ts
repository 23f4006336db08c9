/**
 * The engine's own texts in the shopper's language. A refusal or label is built as an EngineText — a key
 * of the `engine.` section of locales/<code>.json with its parameters — and rendered where the answer is
 * written (the GraphQL error, the gateway list, the mail), in the request's or the order's language.
 * English fills any gap, so a missing translation reads as English, never as a key.
 *
 * Parameters are plain values, amounts in cents ({ cents }), written in the language's money format, a
 * storefront string ({ ui: key }, e.g. a country's name for its postcode field, which the checkout form
 * already says), or other EngineTexts (a field's name inside a validation message), each in the same language.
 */
import { translate } from '../../lib/i18n/index.ts';
import { DEFAULT_LOCALE, type LocaleCode } from '../../lib/i18n/locales.ts';
import { formatMoney } from '../../lib/money.ts';

export type TextParam = string | number | { cents: number } | { ui: string } | EngineText;
export type EngineText = {
  readonly key: string;
  readonly params?: Readonly<Record<string, TextParam>>;
  /** Several texts said one after the other (every problem of a form), instead of `key`. */
  readonly parts?: readonly EngineText[];
  /** A message that has no translation (another domain's English wording), said as it is, instead of `key`. */
  readonly literal?: string;
};

/** An engine text: `key` without its `engine.` prefix, e.g. text('coupon.expired', { code }). */
export function text(key: string, params?: Record<string, TextParam>): EngineText {
  return params ? { key, params } : { key };
}

function renderParam(value: TextParam, locale: LocaleCode): string | number {
  if (typeof value === 'string' || typeof value === 'number') return value;
  if ('cents' in value) return formatMoney(value.cents, locale);
  if ('ui' in value) return translate(locale, value.ui);
  return renderText(value, locale);
}

/** Several texts as one, each said in turn (joined by a space, as WooCommerce joins its notices). */
export function joinedText(parts: readonly EngineText[]): EngineText {
  return { key: '', parts };
}

/** A message without translation, kept as it is in every language. */
export function literalText(message: string): EngineText {
  return { key: '', literal: message };
}

/** The text in `locale` (English when the locale has no translation of it). */
export function renderText(value: EngineText, locale: LocaleCode): string {
  if (value.literal !== undefined) return value.literal;
  if (value.parts) return value.parts.map((part) => renderText(part, locale)).join(' ');
  const params: Record<string, string | number> = {};
  for (const [name, param] of Object.entries(value.params ?? {})) params[name] = renderParam(param, locale);
  return translate(locale, `engine.${value.key}`, params);
}

/** The English text: what errors carry as their `message` (logs, and callers that do not localize). */
export function englishText(value: EngineText): string {
  return renderText(value, DEFAULT_LOCALE.code);
}

/**
 * An error whose message the shopper reads: built from an EngineText (or, for messages not translated,
 * a plain English string). `message` is English; messageIn() gives the shopper's language.
 */
export function messageOf(value: string | EngineText): { message: string; text: EngineText | null } {
  return typeof value === 'string' ? { message: value, text: null } : { message: englishText(value), text: value };
}

/** An error's message in `locale`: its EngineText when it has one, else its (English) message. */
export function messageIn(err: Error & { text?: EngineText | null }, locale: LocaleCode): string {
  return err.text ? renderText(err.text, locale) : err.message;
}
