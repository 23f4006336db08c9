/**
 * The language an engine request is answered in. The storefront sends its page's locale as
 * `Accept-Language` (a header browsers already send, so an unchanged WooGraphQL storefront gets its
 * visitor's language too); anything the shop does not speak falls back to English.
 */
import { DEFAULT_LOCALE, type LocaleCode } from '../../lib/i18n/locales.ts';
import { negotiateLocale } from '../../lib/i18n/negotiate.ts';

export function requestLocale(request: Request): LocaleCode {
  return (negotiateLocale(request.headers.get('accept-language')) ?? DEFAULT_LOCALE).code;
}
