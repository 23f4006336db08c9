/** Checkout and payment-gateway resolvers: thin mapping to the checkout and payment services. */
import { requireSession, whoOf } from '../cart/resolvers.ts';
import type { AccountContext } from '../context.ts';
import { userErrors } from '../i18n/shopper-error.ts';
import { paginate, type PageArgs } from '../relay.ts';
import type { CheckoutInput } from './service.ts';

type Ctx = AccountContext;

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
      },
      ctx: Ctx,
    ) => {
      requireSession(ctx);
      return ctx.payments.stripePaymentIntent(whoOf(ctx), a.stripePaymentMethod ?? 'SETUP');
    },
  },
  RootMutation: {
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
