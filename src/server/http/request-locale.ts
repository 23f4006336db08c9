/**
 * The language an engine request is answered in. The storefront sends its page's locale as
 * `Accept-Language` (a header browsers already send, so an unchanged WooGraphQL storefront gets its
 * visitor's language too); anything the shop does not speak falls back to English.
 */
import { DEFAULT_LOCALE, type LocaleCode } from '../../lib/i18n/locales.ts';
import { negotiateLocale } from '../../lib/i18n/negotiate.ts';

export function requestLocale(request: Request): LocaleCode {
  return localeOfHeader(request.headers.get('accept-language'));
}

/** The locale an Accept-Language value asks for (English when none the shop speaks). */
export function localeOfHeader(acceptLanguage: string | null | undefined): LocaleCode {
  return (negotiateLocale(acceptLanguage) ?? DEFAULT_LOCALE).code;
}
