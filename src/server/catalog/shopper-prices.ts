/**
 * Whose prices a catalog answer carries. A catalog read (http/response-cache.ts: a query of root fields
 * that depend on the catalog alone) is the same for every caller — cached, prebuilt, answered by the fast
 * path — so it carries the prices of the shop's base country, those of every shopper whose address is not
 * known. Any other operation is the caller's own (never stored by any cache: http/cache-policy.ts), so the
 * products in it carry the prices this shopper pays: for their destination (the session's address, else a
 * logged-in customer's saved one), without VAT for a business whose VAT is reverse charged — the unit
 * prices their cart charges (cart/totals.ts). That is how a storefront re-prices a prebuilt page for a
 * shopper in France or Switzerland (WooCommerce with "tax based on the customer's shipping address").
 */
import type { GraphQLResolveInfo } from 'graphql';
import type { GraphQLContext } from '../context.ts';
import { isCatalogOperation } from '../http/response-cache.ts';
import { isCustomerSessionId } from '../session/service.ts';
import { baseTaxContext, customerTax, type CustomerTax } from '../tax/location.ts';
import { displayedUnitPrice, unitPrice } from '../tax/prices.ts';

/** The shopper's tax, worked out once per request (every price field of the answer asks). */
const perRequest = new WeakMap<object, Promise<CustomerTax>>();

/** The destination and tax the session's shopper pays; the base country's until an address is known. */
export function shopperTax(ctx: GraphQLContext): Promise<CustomerTax> {
  const key = ctx.session as object;
  let tax = perRequest.get(key);
  if (!tax) {
    const id = ctx.session.customerId;
    // A customer's session serves only with that customer's login (auth/plugin.ts); without it, the
    // address is not known.
    const viewer = (ctx as GraphQLContext & { auth?: { viewer?: { id: number } | null } }).auth?.viewer;
    const known = !isCustomerSessionId(id) || (viewer && String(viewer.id) === id);
    const settings = ctx.cart.settings;
    tax = known
      ? ctx.cart
          .customer({ customerId: id, userId: isCustomerSessionId(id) ? id : null, scope: ctx.session })
          .then((customer) => customerTax(settings, customer))
      : Promise.resolve({ country: settings.baseCountry, vatExempt: false, context: baseTaxContext(settings) });
    perRequest.set(key, tax);
  }
  return tax;
}

/**
 * The price shown for an amount as entered (WooCommerce's wc_get_price_to_display), with or without tax as
 * TAX_DISPLAY_SHOP says: the base country's in a catalog read, the shopper's in any other operation.
 */
export async function shownPriceFor(
  ctx: GraphQLContext,
  info: Pick<GraphQLResolveInfo, 'operation'>,
): Promise<(cents: number) => number> {
  const settings = ctx.cart.settings;
  const context = isCatalogOperation(info.operation) ? baseTaxContext(settings) : (await shopperTax(ctx)).context;
  return (cents) => displayedUnitPrice(unitPrice(cents, context), settings.taxDisplayShop);
}
