/** Checkout and payment-gateway resolvers: thin mapping to the checkout and payment services. */
import { createHash } from 'node:crypto';
import { requireSession, whoOf } from '../cart/resolvers.ts';
import { requireViewer } from '../customers/resolvers.ts';
import type { AccountContext } from '../context.ts';
import { userErrors } from '../i18n/shopper-error.ts';
import { paginate, type PageArgs } from '../relay.ts';
import type { CheckoutInput } from './service.ts';

type Ctx = AccountContext;

/** WooNuxt's numeric id of a saved card: 31 bits of its token's hash, stable while the card is saved. */
const cardNumber = (token: string) => createHash('sha256').update(token).digest().readUInt32BE(0) >>> 1;

/** The viewer's saved cards in the WooGraphQL Stripe plugin's shape. */
async function savedPaymentMethods(ctx: Ctx, userId: number) {
  const cards = await userErrors(() => ctx.payments.savedCards(userId), ctx.locale);
  return cards.map((card) => ({
    id: cardNumber(card.id),
    token: card.id,
    customerId: card.customer,
    last4: card.last4,
    expiryMonth: String(card.expMonth).padStart(2, '0'),
    expiryYear: String(card.expYear),
    cardType: card.brand,
    isDefault: card.isDefault === true,
  }));
}

export const checkoutResolvers = {
  RootQuery: {
    paymentGateways: (_: unknown, a: PageArgs, ctx: Ctx) =>
      paginate(ctx.checkout.gateways(ctx.locale), a, { defaultPageSize: 100, maxPageSize: 100 }, (g) => g.id),
    stripePaymentIntent: async (
      _: unknown,
      a: {
        stripePaymentMethod?: 'PAYMENT' | 'SETUP' | null;
        customerId?: string | null;
        saveForFuture?: boolean | null;
        paymentMethodId?: string | null;
      },
      ctx: Ctx,
    ) => {
      requireSession(ctx);
      return ctx.payments.stripePaymentIntent(whoOf(ctx), a.stripePaymentMethod ?? 'SETUP', {
        locale: ctx.locale,
        saveForFuture: a.saveForFuture === true,
        paymentMethodId: a.paymentMethodId ?? null,
        customerId: a.customerId ?? null,
      });
    },
  },
  // Saved cards belong to the logged-in viewer alone: any other User answers none.
  User: {
    stripeCustomerId: (u: { id: number }, _: unknown, ctx: Ctx) =>
      ctx.auth.viewer?.id === u.id ? ctx.payments.stripeCustomerId(u.id) : null,
    savedPaymentMethods: async (u: { id: number }, _: unknown, ctx: Ctx) =>
      ctx.auth.viewer?.id === u.id ? savedPaymentMethods(ctx, u.id) : [],
  },
  RootMutation: {
    removeSavedPaymentMethod: async (
      _: unknown,
      { input }: { input: { clientMutationId?: string | null; token: string } },
      ctx: Ctx,
    ) => {
      const viewer = requireViewer(ctx);
      await userErrors(() => ctx.payments.removeSavedCard(viewer.id, input.token), ctx.locale);
      return {
        clientMutationId: input.clientMutationId ?? null,
        token: input.token,
        savedPaymentMethods: await savedPaymentMethods(ctx, viewer.id),
      };
    },
    checkout: async (_: unknown, { input }: { input: CheckoutInput & { clientMutationId?: string } }, ctx: Ctx) => {
      requireSession(ctx);
      const { clientIp } = ctx.auth;
      const who = whoOf(ctx);
      const r = await userErrors(() => ctx.checkout.checkout(who, input, { clientIp, locale: ctx.locale }), ctx.locale);
      let customerWho = who;
      if (r.accountUserId !== null) {
        // The new account takes over this session (as a login would): the returned customer is the
        // account's, and the order is its own. The session serves the account only once the storefront
        // logs in with the same credentials for its auth token (WooNuxt does the same after checkout).
        await ctx.accounts.auth.handOverSession(ctx.session, r.accountUserId);
        customerWho = { customerId: String(r.accountUserId), userId: String(r.accountUserId) };
      } else await ctx.sessions.reissue(ctx.session);
      const customer = {
        kind: 'session-customer' as const,
        customerId: customerWho.customerId,
        c: await ctx.cart.customer(customerWho),
      };
      return {
        clientMutationId: input.clientMutationId ?? null,
        order: r.order,
        customer,
        result: 'success',
        redirect: r.redirect,
      };
    },
  },
};
