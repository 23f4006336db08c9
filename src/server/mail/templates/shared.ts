/**
 * What the message builders share: the mail's text in its language (`engine.mail.` strings of
 * locales/<code>.json), the result's shape, amounts, dates, durations and postal addresses as the
 * recipient's language writes them.
 */
import { formatAddress, type PostalAddress as AddressLines } from '../../../lib/address/format.ts';
import { DEFAULT_LOCALE, localeByCode, type LocaleCode } from '../../../lib/i18n/locales.ts';
import { renderText, text as engineText, type TextParam } from '../../i18n/text.ts';
import { oneLine } from '../html.ts';
import { renderHtmlLayout, renderTextLayout, type LayoutInput } from '../layout.ts';
import { dateTimeFormat, numberFormat } from '../../../lib/intl-formatters.ts';

/** A mail's text in `locale`: `key` names an `engine.mail.` string of locales/<code>.json. */
export const mailText = (locale: LocaleCode) => (key: string, params?: Record<string, TextParam>) =>
  renderText(engineText(`mail.${key}`, params), locale);

export type EmailContent = {
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
  headers?: Record<string, string>;
};

export function compose(
  subject: string,
  layout: LayoutInput,
  extra: Pick<EmailContent, 'replyTo' | 'headers'> = {},
): EmailContent {
  return { subject, text: renderTextLayout(layout), html: renderHtmlLayout(layout), ...extra };
}

/** An address as the mails print it: the postal lines (lib/address/format.ts) and how to reach the person. */
export type PostalAddress = AddressLines & { phone?: string | null; email?: string | null };

/**
 * Integer cents → "€1,349.00" (en-US), "1.349,00 €" (de-DE) without going through a float: Intl formats
 * the decimal string exactly.
 */
export function formatCents(cents: number, currency: string, language = 'en-US'): string {
  if (!Number.isSafeInteger(cents)) throw new TypeError(`amount must be integer cents (got ${cents})`);
  const abs = Math.abs(cents);
  const decimal = `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  return numberFormat(language, { style: 'currency', currency }).format(decimal as `${number}`);
}

/** The mail's language as Intl knows it; English mails keep the day-month-year date they always had. */
export const mailLanguage = (locale: LocaleCode) => (localeByCode(locale) ?? DEFAULT_LOCALE).bcp47;
const dateLanguage = (locale: LocaleCode) => (locale === DEFAULT_LOCALE.code ? 'en-GB' : mailLanguage(locale));

export function formatOrderDate(value: Date | string, locale: LocaleCode = DEFAULT_LOCALE.code): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new TypeError(`orderDate is not a date (got ${JSON.stringify(value)})`);
  return dateTimeFormat(dateLanguage(locale), { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

const countryNames = new Map<LocaleCode, Intl.DisplayNames>();

/** The postal address as its country writes it (src/lib/address/format.ts, as the order pages), then contact. */
export function addressLines(address: PostalAddress, locale: LocaleCode = DEFAULT_LOCALE.code): string[] {
  let names = countryNames.get(locale);
  if (!names) {
    names = new Intl.DisplayNames([mailLanguage(locale)], { type: 'region' });
    countryNames.set(locale, names);
  }
  const countries = names;
  return [
    ...formatAddress(address, { countryName: (code) => countries.of(code) ?? code }),
    address.phone,
    address.email,
  ]
    .map((line) => (line ?? '').trim())
    .filter((line) => line !== '');
}

export function formatDuration(minutes: number, locale: LocaleCode = DEFAULT_LOCALE.code): string {
  const say = mailText(locale);
  if (minutes % 1440 === 0)
    return minutes === 1440 ? say('duration.hours', { count: 24 }) : say('duration.days', { count: minutes / 1440 });
  if (minutes % 60 === 0)
    return minutes === 60 ? say('duration.oneHour') : say('duration.hours', { count: minutes / 60 });
  return say('duration.minutes', { count: minutes });
}

/** "Hi Ada," with a name, "Hello," without one, in the mail's language. */
export function greetingIn(locale: LocaleCode, customerName?: string | null): string {
  const say = mailText(locale);
  return customerName ? say('greeting', { name: oneLine(customerName, 60) }) : say('hello');
}
