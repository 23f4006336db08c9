/**
 * Refusals the shopper reads — a cart, coupon, stock, VAT-ID or checkout rule — share one base class, so
 * the GraphQL layer turns any of them into an answer in the shopper's language without knowing the domains
 * that raise them. Everything else stays masked ("Unexpected error.").
 */
import { GraphQLError } from 'graphql';
import type { LocaleCode } from '../../lib/i18n/locales.ts';
import { messageIn, messageOf, type EngineText } from './text.ts';

export class ShopperError extends Error {
  /** The message as a translatable text (null: said as it is, e.g. API-usage messages that stay English). */
  readonly text: EngineText | null;
  /** The GraphQL error code; BAD_USER_INPUT when none is given. */
  readonly code: string | undefined;
  constructor(message: string | EngineText, code?: string) {
    const { message: english, text } = messageOf(message);
    super(english);
    this.text = text;
    this.code = code;
  }
}

/** Runs `fn`; a ShopperError becomes a GraphQL error in `locale` with its code, anything else is rethrown. */
export async function userErrors<T>(fn: () => Promise<T>, locale: LocaleCode): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ShopperError)
      throw new GraphQLError(messageIn(err, locale), { extensions: { code: err.code || 'BAD_USER_INPUT' } });
    throw err;
  }
}
