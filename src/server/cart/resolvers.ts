/** Cart resolvers: thin mapping from the contract's cart fields and mutations to the cart service. */
import { GraphQLError } from 'graphql';
import { formatMoney, formatRaw } from '../catalog/money.ts';
import { variationAttributes } from '../catalog/display-names.ts';
import type { AccountContext, GraphQLContext } from '../context.ts';
import { paginate, type PageArgs } from '../relay.ts';
import { isCustomerSessionId } from '../session/service.ts';
import type { SessionCustomer } from './model.ts';
import { MAX_CART_LINES, type Who } from './service.ts';
import type { CartLine, CartView } from './totals.ts';
import { baseTaxContext, customerTax, reverseChargeApplies } from '../tax/location.ts';
import { samePrices } from '../tax/prices.ts';
import { taxOf } from '../tax/rates.ts';
import type { LocaleCode } from '../../lib/i18n/locales.ts';
import { userErrors } from '../i18n/shopper-error.ts';
import { shippingLabel } from '../shipping/labels.ts';

type Ctx = GraphQLContext;
type Format = { format?: 'RAW' | 'FORMATTED' | null };

/** Cart money: always a string ("€0.00" / "0,00 €" / "0"), formatted like the catalog's prices. */
export function cartMoney(cents: number, format: Format['format'], locale: LocaleCode): string {
  return format === 'RAW' ? formatRaw(cents) : formatMoney(cents, locale);
}

/** A Money field resolver (`format: RAW|FORMATTED`) over an amount in cents, in the answer's language. */
export function moneyField<T>(cents: (source: T) => number) {
  return (source: T, a: Format, ctx: Ctx) => cartMoney(cents(source), a.format, ctx.locale);
}

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** What a shipping rate's price fields need besides the rate: the cart's tax and how it is shown. */
type RateTax = { taxRate: CartView['taxRate']; displayIncludesTax: boolean };
type RatePrice = { costCents: number; label: string } & RateTax;

/** The logged-in customer's id as a session id ('12'), or null: the Bearer login the accounts plugin verified. */
export function viewerIdOf(ctx: Ctx): string | null {
  const viewer = (ctx as Ctx & { auth?: { viewer?: { id: number } | null } }).auth?.viewer;
  return viewer ? String(viewer.id) : null;
}

/**
 * The session's caller. A customer's session (numeric id) is that customer's only while they are logged
 * in: the accounts plugin serves it to nobody else, and this refuses it too rather than hand a
 * customer's cart, addresses or account to a request that is not their login.
 */
export function whoOf(ctx: Ctx): Who {
  const id = ctx.session.customerId;
  const clientIp = (ctx as Partial<AccountContext>).auth?.clientIp;
  if (!isCustomerSessionId(id)) return { customerId: id, userId: null, scope: ctx.session, clientIp };
  if (viewerIdOf(ctx) !== id)
    throw new GraphQLError('You must be logged in to do that.', { extensions: { code: 'UNAUTHENTICATED' } });
  return { customerId: id, userId: id, scope: ctx.session, clientIp };
}

/** Cart operations first re-check the session token, as WooGraphQL's do. */
export function requireSession(ctx: Ctx): void {
  if (ctx.session.tokenError)
    throw new GraphQLError(ctx.session.tokenError, { extensions: { code: 'INVALID_SESSION' } });
}

/** A session-changing mutation: serialised by the cart service, then a fresh token goes out. */
async function mutation<T>(ctx: Ctx, fn: (who: Who) => Promise<T>): Promise<T> {
  requireSession(ctx);
  const result = await userErrors(() => fn(whoOf(ctx)), ctx.locale);
  await ctx.sessions.reissue(ctx.session);
  return result;
}

const lineFields = {
  key: (l: CartLine) => l.key,
  quantity: (l: CartLine) => l.quantity,
  subtotal: moneyField((l: CartLine) => l.subtotalCents),
  subtotalTax: moneyField((l: CartLine) => l.subtotalTaxCents),
  total: moneyField((l: CartLine) => l.totalCents + l.taxCents),
  tax: moneyField((l: CartLine) => l.taxCents),
  extraData: (l: CartLine, a: { key?: string | null; keysIn?: (string | null)[] | null }) => {
    if (!l.item.extraData) return [];
    const data = JSON.parse(l.item.extraData) as Record<string, unknown>;
    return Object.entries(data)
      .filter(([k]) => (!a.key || k === a.key) && (!a.keysIn || a.keysIn.includes(k)))
      .map(([key, value]) => ({
        id: `cart__${l.key}`,
        key,
        value: typeof value === 'string' ? value : JSON.stringify(value),
      }));
  },
  product: (l: CartLine) => ({
    node: l.product,
    simpleVariations: Object.entries(l.item.variation).map(([name, value]) => ({
      id: b64(`${l.key}||${name}||${value}`),
      name,
      value,
    })),
  }),
  variation: (l: CartLine, _: unknown, ctx: Ctx) => {
    if (!l.variation) return null;
    const v = l.variation;
    // Names in the request's language, term names rather than slugs (catalog/display-names.ts).
    return { node: v, attributes: variationAttributes(v.id, v.attributes, v.product, ctx.locale) };
  },
};

const cartFields = {
  contents: (v: CartView, a: PageArgs & { where?: { needsShipping?: boolean | null } | null }) => {
    let lines = v.lines;
    if (a.where?.needsShipping === true) lines = lines.filter((l) => !l.virtual);
    if (a.where?.needsShipping === false) lines = lines.filter((l) => l.virtual);
    const page = paginate(lines, a, { defaultPageSize: MAX_CART_LINES, maxPageSize: MAX_CART_LINES }, (l) => l.key);
    return { ...page, itemCount: lines.reduce((s, l) => s + l.quantity, 0), productCount: lines.length };
  },
  appliedCoupons: (v: CartView) => (v.coupons.length ? v.coupons : null),
  availableShippingMethods: (v: CartView) =>
    v.packages.map((p) => ({ ...p, taxRate: v.taxRate, displayIncludesTax: v.displayIncludesTax })),
  chosenShippingMethods: (v: CartView) => v.chosenShippingMethods,
  subtotal: moneyField((v: CartView) => v.subtotalCents),
  subtotalTax: moneyField((v: CartView) => v.subtotalTaxCents),
  discountTotal: moneyField((v: CartView) => v.discountCents),
  discountTax: moneyField((v: CartView) => v.discountTaxCents),
  shippingTotal: moneyField((v: CartView) => v.shippingCents),
  shippingTax: moneyField((v: CartView) => v.shippingTaxCents),
  contentsTotal: moneyField((v: CartView) => v.contentsCents),
  contentsTax: moneyField((v: CartView) => v.contentsTaxCents),
  feeTotal: moneyField(() => 0),
  feeTax: moneyField(() => 0),
  total: moneyField((v: CartView) => v.totalCents),
  totalTax: moneyField((v: CartView) => v.totalTaxCents),
  totalTaxes: (v: CartView) =>
    v.taxRate && v.totalTaxCents
      ? [
          {
            id: `${v.taxRate.country}-${v.taxRate.label}`,
            label: v.taxRate.label,
            isCompound: false,
            cents: v.totalTaxCents,
          },
        ]
      : [],
  isEmpty: (v: CartView) => v.lines.length === 0,
  displayPricesIncludeTax: (v: CartView) => v.displayIncludesTax,
  needsShippingAddress: (v: CartView) => v.needsShipping,
};

function customerObject(ctx: Ctx, c: SessionCustomer) {
  return { kind: 'session-customer' as const, customerId: ctx.session.customerId, c };
}
type CustomerObject = ReturnType<typeof customerObject>;

/**
 * The session's customer: what the `customer` query answers a caller without a login. The field and the
 * profile fields of Customer are the customers domain's (customers/resolvers.ts), which builds on this.
 */
export async function sessionCustomer(ctx: Ctx): Promise<CustomerObject> {
  return customerObject(ctx, await ctx.cart.customer(whoOf(ctx)));
}

export type SessionCustomerInput = {
  clientMutationId?: string | null;
  id?: string | null;
  billing?: Record<string, string | null> | null;
  shipping?: Record<string, string | null> | null;
  shippingSameAsBilling?: boolean | null;
};

/** `updateCustomer` for a caller without a login: the session customer's addresses (customers/resolvers.ts owns the field). */
export function updateSessionCustomer(input: SessionCustomerInput, ctx: Ctx) {
  // Accounts (logged-in customers' profiles) are another domain; here only the session customer.
  if (input.id && input.id !== 'guest')
    throw new GraphQLError('Failed to update customer.', { extensions: { code: 'BAD_USER_INPUT' } });
  return mutation(ctx, async (who) => {
    const c = await ctx.cart.updateSessionCustomer(who, {
      billing: input.billing,
      shipping: input.shipping,
      shippingSameAsBilling: input.shippingSameAsBilling,
    });
    return { clientMutationId: input.clientMutationId ?? null, customer: customerObject(ctx, c) };
  });
}

export const cartResolvers = {
  RootQuery: {
    cart: async (_: unknown, __: unknown, ctx: Ctx) => {
      requireSession(ctx);
      return ctx.cart.view(whoOf(ctx));
    },
    cartItem: async (_: unknown, a: { key: string }, ctx: Ctx) => {
      requireSession(ctx);
      return (await ctx.cart.view(whoOf(ctx))).lines.find((l) => l.key === a.key) ?? null;
    },
  },
  RootMutation: {
    addToCart: (
      _: unknown,
      { input }: { input: Parameters<Ctx['cart']['addToCart']>[1] & { clientMutationId?: string } },
      ctx: Ctx,
    ) =>
      mutation(ctx, async (who) => {
        const { key, view } = await ctx.cart.addToCart(who, input);
        return {
          clientMutationId: input.clientMutationId ?? null,
          cartItem: view.lines.find((l) => l.key === key) ?? null,
          cart: view,
        };
      }),
    updateItemQuantities: (
      _: unknown,
      { input }: { input: { clientMutationId?: string; items?: { key: string; quantity: number }[] | null } },
      ctx: Ctx,
    ) =>
      mutation(ctx, async (who) => {
        const r = await ctx.cart.updateItemQuantities(who, input.items);
        const updated = r.view.lines.filter((l) => r.updated.includes(l.key));
        const removed = r.before.lines.filter((l) => r.removed.includes(l.key));
        return {
          clientMutationId: input.clientMutationId ?? null,
          updated,
          removed,
          items: [...updated, ...removed],
          cart: r.view,
        };
      }),
    removeItemsFromCart: (
      _: unknown,
      { input }: { input: { clientMutationId?: string; keys?: string[] | null; all?: boolean | null } },
      ctx: Ctx,
    ) =>
      mutation(ctx, async (who) => {
        const r = await ctx.cart.removeItems(who, input.keys, input.all);
        return {
          clientMutationId: input.clientMutationId ?? null,
          cartItems: r.before.lines.filter((l) => r.removed.includes(l.key)),
          cart: r.view,
        };
      }),
    emptyCart: (_: unknown, { input }: { input: { clientMutationId?: string } }, ctx: Ctx) =>
      mutation(ctx, async (who) => {
        const r = await ctx.cart.emptyCart(who);
        return { clientMutationId: input.clientMutationId ?? null, cart: r.view, deletedCart: r.before };
      }),
    applyCoupon: (_: unknown, { input }: { input: { clientMutationId?: string; code: string } }, ctx: Ctx) =>
      mutation(ctx, async (who) => {
        const r = await ctx.cart.applyCoupon(who, input.code);
        return {
          clientMutationId: input.clientMutationId ?? null,
          applied: r.view.coupons.find((c) => c.coupon.code === r.code) ?? null,
          cart: r.view,
        };
      }),
    removeCoupons: (
      _: unknown,
      { input }: { input: { clientMutationId?: string; codes?: string[] | null } },
      ctx: Ctx,
    ) =>
      mutation(ctx, async (who) => ({
        clientMutationId: input.clientMutationId ?? null,
        cart: await ctx.cart.removeCoupons(who, input.codes),
      })),
    updateShippingMethod: (
      _: unknown,
      { input }: { input: { clientMutationId?: string; shippingMethods?: string[] | null } },
      ctx: Ctx,
    ) =>
      mutation(ctx, async (who) => ({
        clientMutationId: input.clientMutationId ?? null,
        cart: await ctx.cart.updateShippingMethod(who, input.shippingMethods),
      })),
  },
  Cart: cartFields,
  CartItem: { __resolveType: () => 'SimpleCartItem' },
  SimpleCartItem: lineFields,
  AppliedCoupon: {
    code: (c: CartView['coupons'][number]) => c.coupon.code,
    description: (c: CartView['coupons'][number]) => c.coupon.description,
    discountAmount: (c: CartView['coupons'][number], a: Format & { excludeTax?: boolean | null }, ctx: Ctx) =>
      cartMoney(a.excludeTax === false ? c.discountCents + c.discountTaxCents : c.discountCents, a.format, ctx.locale),
    discountTax: moneyField((c: CartView['coupons'][number]) => c.discountTaxCents),
  },
  ShippingPackage: {
    packageDetails: (p: CartView['packages'][number]) => p.packageDetails,
    rates: (p: CartView['packages'][number] & RateTax) =>
      p.rates.map((r) => ({ ...r, taxRate: p.taxRate, displayIncludesTax: p.displayIncludesTax })),
    supportsShippingCalculator: () => true,
  },
  // Rates are entered without tax; `cost` shows the tax with them when the cart is shown including tax.
  ShippingRate: {
    label: (r: RatePrice, _: unknown, ctx: Ctx) => shippingLabel(r.label, ctx.locale),
    cost: moneyField((r: RatePrice) => r.costCents + (r.displayIncludesTax ? taxOf(r.costCents, r.taxRate) : 0)),
    subtotal: moneyField((r: RatePrice) => r.costCents),
    taxTotal: moneyField((r: RatePrice) => taxOf(r.costCents, r.taxRate)),
  },
  CartTax: { amount: moneyField((t: { cents: number }) => t.cents) },
  // The session's own Customer fields; the profile fields (id, names, addresses …) are the customers domain's.
  Customer: {
    sessionToken: (c: CustomerObject, _: unknown, ctx: Ctx) => ctx.sessions.sign(c.customerId),
    hasCalculatedShipping: (c: CustomerObject) => c.c.calculatedShipping,
    calculatedShipping: (c: CustomerObject) => c.c.calculatedShipping,
    isVatExempt: (c: CustomerObject, _: unknown, ctx: Ctx) =>
      reverseChargeApplies(ctx.cart.settings, c.c, c.c.shipping.country || c.c.billing.country),
    catalogPricesApply: (c: CustomerObject, _: unknown, ctx: Ctx) =>
      samePrices(customerTax(ctx.cart.settings, c.c).context, baseTaxContext(ctx.cart.settings)),
  },
};
