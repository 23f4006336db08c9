/**
 * Customer-side resolvers: the viewer (User), the logged-in customer's profile on the Customer type
 * (names, e-mail, username, addresses from the account; the guest session's as before for guests),
 * customer.orders, updateCustomer for logged-in customers and updateUser (profile and password). A new
 * e-mail address needs the current password and is announced to the previous one (auth/email-change.ts).
 * These fields are this domain's alone: for a caller without a login they answer from the session
 * customer the cart domain keeps (cart/resolvers.ts: sessionCustomer, updateSessionCustomer).
 */
import crypto from 'node:crypto';
import { GraphQLError } from 'graphql';
import type { AccountContext } from '../context.ts';
import { userErrors } from '../i18n/shopper-error.ts';
import { sessionCustomer, updateSessionCustomer, whoOf, type SessionCustomerInput } from '../cart/resolvers.ts';
import { emptyAddress, type Address, type SessionCustomer } from '../cart/model.ts';
import type { OrderRow } from '../orders/service.ts';
import { paginate, type PageArgs } from '../relay.ts';
import { AccountError, type CustomerRow, type ProfileUpdate } from './service.ts';

type Ctx = AccountContext;
const b64 = (s: string) => Buffer.from(s).toString('base64');
const wcDate = (d: Date | null | undefined) => (d ? d.toISOString().replace(/\.\d{3}Z$/, '+00:00') : null);

/** The Customer object the cart domain builds, plus the account when the customer is logged in. */
export type CustomerObject = {
  kind: 'session-customer';
  customerId: string;
  c: SessionCustomer;
  account?: CustomerRow | null;
};

/** Account refusals become GraphQL errors with their message (rate limits carry code RATE_LIMITED). */
export async function accountErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AccountError) throw new GraphQLError(err.message, { extensions: { code: err.code } });
    throw err;
  }
}

/** The logged-in customer, or the Bearer token's error (expired, revoked …), or a plain login-required error. */
export function requireViewer(ctx: Ctx): CustomerRow {
  if (ctx.auth.viewer) return ctx.auth.viewer;
  if (ctx.auth.error) throw new GraphQLError(ctx.auth.error, { extensions: { code: 'UNAUTHENTICATED' } });
  throw new GraphQLError('You must be logged in to do that.', { extensions: { code: 'UNAUTHENTICATED' } });
}

export async function customerOf(ctx: Ctx, user: CustomerRow): Promise<CustomerObject> {
  return {
    kind: 'session-customer',
    customerId: String(user.id),
    c: await ctx.cart.customer({ customerId: String(user.id), userId: String(user.id) }),
    account: user,
  };
}

/** The account behind a Customer object: only the logged-in viewer's own. */
function accountOf(c: CustomerObject, ctx: Ctx): CustomerRow | null {
  if (c.account) return c.account;
  const v = ctx.auth.viewer;
  return v && String(v.id) === c.customerId ? v : null;
}

/**
 * A logged-in customer's address as the cart assumes it (the session's over the account's saved one,
 * cart/model.ts), with the account's names and e-mail where the address has none.
 */
function addressFor(assumed: Address, acc: CustomerRow, withEmail: boolean): Address {
  const base = { ...emptyAddress(), ...assumed };
  return {
    ...base,
    firstName: base.firstName || acc.firstName,
    lastName: base.lastName || acc.lastName,
    email: withEmail ? base.email || acc.email : base.email,
  };
}
const wire = (a: Address) => ({ ...a, country: a.country || null });
const sessionName = (c: CustomerObject) =>
  [c.c.billing.firstName, c.c.billing.lastName].filter(Boolean).join(' ') || null;

export function gravatarUrl(email: string, size = 96): string {
  const hash = crypto.createHash('md5').update(email.trim().toLowerCase()).digest('hex');
  return `https://secure.gravatar.com/avatar/${hash}?s=${size}&d=mm&r=g`;
}

export function decodeUserId(id: string | null | undefined): number | null {
  if (!id) return null;
  if (/^\d{1,10}$/.test(id)) return Number(id);
  const m = /^user:(\d{1,10})$/.exec(Buffer.from(id, 'base64').toString('utf8'));
  return m ? Number(m[1]) : null;
}

const PAID = new Set(['processing', 'completed']);

/** Orders the Customer object may list: the logged-in customer's, or a guest session's own. */
async function ordersOf(c: CustomerObject, ctx: Ctx): Promise<OrderRow[]> {
  const acc = accountOf(c, ctx);
  if (acc) return ctx.orders.listByCustomer(String(acc.id), 100);
  if (ctx.auth.error) throw new GraphQLError(ctx.auth.error, { extensions: { code: 'UNAUTHENTICATED' } });
  // A session keyed by a user id without that user's login shows nothing personal.
  if (!c.customerId.startsWith('t_') || ctx.session.tokenError || c.customerId !== ctx.session.customerId) return [];
  return ctx.orders.listByCustomer(c.customerId, 100);
}

type OrderListArgs = PageArgs & { where?: { search?: string | null; statuses?: (string | null)[] | null } | null };

/** A page of the customer's orders, filtered by order number and statuses. */
async function orderConnection(c: CustomerObject, a: OrderListArgs, ctx: Ctx) {
  let list = await ordersOf(c, ctx);
  const search = a.where?.search?.trim();
  if (search) list = list.filter((o) => String(o.id).includes(search.replace(/^#/, '')));
  const statuses = a.where?.statuses?.filter((s): s is string => !!s);
  if (statuses?.length) list = list.filter((o) => statuses.includes(o.status));
  return paginate(list, a, { defaultPageSize: 100, maxPageSize: 100 }, (o) => o.id);
}

type UpdateCustomerArgs = {
  input: ProfileUpdate & SessionCustomerInput & { currentPassword?: string | null; isSession?: boolean | null };
};
type UpdateUserArgs = {
  input: {
    clientMutationId?: string | null;
    id: string;
    currentPassword?: string | null;
    password?: string | null;
    email?: string | null;
    firstName?: string | null;
    lastName?: string | null;
    displayName?: string | null;
  };
};

export const customerResolvers = {
  Order: {
    customer: async (o: OrderRow, _: unknown, ctx: Ctx) => {
      const v = ctx.auth.viewer;
      return v && String(v.id) === o.customerId ? customerOf(ctx, v) : null;
    },
  },
  RootQuery: {
    viewer: (_: unknown, __: unknown, ctx: Ctx) => ctx.auth.viewer,
    personalDataExport: async (_: unknown, __: unknown, ctx: Ctx) =>
      JSON.stringify(await ctx.accounts.personalData(requireViewer(ctx)), null, 2),
    customer: async (_: unknown, a: { id?: string | null; customerId?: number | null }, ctx: Ctx) => {
      const v = ctx.auth.viewer;
      const asked = a.customerId ?? (a.id && a.id !== 'guest' ? (decodeUserId(a.id) ?? -1) : null);
      if (asked !== null && asked !== undefined) return v && v.id === asked ? customerOf(ctx, v) : null;
      if (v) return customerOf(ctx, v);
      return sessionCustomer(ctx);
    },
    // WooGraphQL answers RootQuery.orders for anyone but a shop manager with the current customer's own
    // orders; this API has no shop managers, so it is always that list.
    orders: async (_: unknown, a: OrderListArgs, ctx: Ctx) =>
      orderConnection(ctx.auth.viewer ? await customerOf(ctx, ctx.auth.viewer) : await sessionCustomer(ctx), a, ctx),
  },
  RootMutation: {
    updateCustomer: async (_: unknown, args: UpdateCustomerArgs, ctx: Ctx) => {
      const { input } = args;
      if (!ctx.auth.viewer) {
        if (ctx.auth.error) requireViewer(ctx);
        return updateSessionCustomer(input, ctx);
      }
      const v = ctx.auth.viewer;
      if (input.id && input.id !== 'guest' && decodeUserId(input.id) !== v.id)
        throw new GraphQLError('Sorry, you are not allowed to edit this user.', { extensions: { code: 'FORBIDDEN' } });
      if (input.isSession) {
        // WooGraphQL's isSession: the session's addresses only (the shipping estimate, the checkout's
        // destination). The account's saved ones change on the account page and with an order.
        const { billing, shipping, shippingSameAsBilling } = input;
        await updateSessionCustomer({ billing, shipping, shippingSameAsBilling }, ctx);
        return { clientMutationId: input.clientMutationId ?? null, customer: await customerOf(ctx, v) };
      }
      // A VAT ID given to the account is checked with VIES first, so one VIES refuses saves nothing.
      const vatId = input.billing?.vatId;
      const vat = vatId?.trim()
        ? await userErrors(
            () =>
              ctx.cart.vatIds.check(
                vatId,
                (input.billing?.country ?? v.billing.country ?? '').trim().toUpperCase(),
                null,
                { caller: { session: ctx.session.customerId, clientIp: ctx.auth.clientIp } },
              ),
            ctx.locale,
          )
        : vatId === undefined
          ? undefined
          : null;
      const updated = await accountErrors(() =>
        ctx.accounts.emailChange.updateProfile(v, input, {
          currentPassword: input.currentPassword,
          clientIp: ctx.auth.clientIp,
        }),
      );
      // Updated from a page in this language: the account's mails speak it from now on.
      await ctx.accounts.customers.setLocale(updated, ctx.locale);
      // The session customer's addresses drive shipping and tax: keep them in step.
      if (input.billing || input.shipping) {
        await ctx.cart.updateSessionCustomer(whoOf(ctx), {
          billing: { ...updated.billing, vatId: undefined },
          shipping: updated.shipping,
          vat,
        });
        await ctx.sessions.reissue(ctx.session);
      }
      return { clientMutationId: input.clientMutationId ?? null, customer: await customerOf(ctx, updated) };
    },
    updateUser: async (_: unknown, { input }: UpdateUserArgs, ctx: Ctx) => {
      const v = requireViewer(ctx);
      if (decodeUserId(input.id) !== v.id)
        throw new GraphQLError('Sorry, you are not allowed to edit this user.', { extensions: { code: 'FORBIDDEN' } });
      return accountErrors(async () => {
        const newPassword = input.password !== undefined && input.password !== null;
        if (newPassword)
          await ctx.accounts.auth.changePassword(
            v,
            ctx.auth.sid,
            input.currentPassword,
            input.password!,
            ctx.auth.clientIp,
          );
        const profile = {
          email: input.email,
          firstName: input.firstName,
          lastName: input.lastName,
          displayName: input.displayName,
        };
        const user = Object.values(profile).some((x) => x !== undefined && x !== null)
          ? await ctx.accounts.emailChange.updateProfile(v, profile, {
              currentPassword: input.currentPassword,
              clientIp: ctx.auth.clientIp,
              passwordChecked: newPassword,
            })
          : await ctx.accounts.customers.get(v.id);
        return { clientMutationId: input.clientMutationId ?? null, user };
      });
    },
  },
  User: {
    id: (u: CustomerRow) => b64(`user:${u.id}`),
    databaseId: (u: CustomerRow) => u.id,
    userId: (u: CustomerRow) => u.id,
    username: (u: CustomerRow) => u.username,
    email: (u: CustomerRow) => u.email,
    emailVerified: (u: CustomerRow) => u.emailVerifiedAt !== null,
    firstName: (u: CustomerRow) => u.firstName || null,
    lastName: (u: CustomerRow) => u.lastName || null,
    name: (u: CustomerRow) => u.displayName || u.username,
    nickname: (u: CustomerRow) => u.username,
    nicename: (u: CustomerRow) => u.nicename,
    slug: (u: CustomerRow) => u.nicename,
    // Only the logged-in user gets a token for their session.
    wooSessionToken: (u: CustomerRow, _: unknown, ctx: Ctx) =>
      ctx.auth.viewer?.id === u.id || ctx.session.customerId === String(u.id) ? ctx.sessions.sign(String(u.id)) : null,
    avatar: (u: CustomerRow, a: { size?: number | null }) => {
      const size = Math.min(512, Math.max(16, a.size ?? 96));
      return { url: gravatarUrl(u.email, size), size, width: size, height: size };
    },
  },
  Customer: {
    // A guest session's id is not a number: it has no user id.
    id: (c: CustomerObject) => (/^\d+$/.test(c.customerId) ? b64(`user:${c.customerId}`) : 'guest'),
    databaseId: (c: CustomerObject) => (/^\d+$/.test(c.customerId) ? Number(c.customerId) : null),
    username: (c: CustomerObject, _: unknown, ctx: Ctx) => accountOf(c, ctx)?.username ?? null,
    email: (c: CustomerObject, _: unknown, ctx: Ctx) => accountOf(c, ctx)?.email ?? (c.c.billing.email || null),
    firstName: (c: CustomerObject, _: unknown, ctx: Ctx) => {
      const acc = accountOf(c, ctx);
      return acc ? acc.firstName || null : c.c.billing.firstName || null;
    },
    lastName: (c: CustomerObject, _: unknown, ctx: Ctx) => {
      const acc = accountOf(c, ctx);
      return acc ? acc.lastName || null : c.c.billing.lastName || null;
    },
    displayName: (c: CustomerObject, _: unknown, ctx: Ctx) => {
      const acc = accountOf(c, ctx);
      return acc ? acc.displayName || acc.username : sessionName(c);
    },
    role: (c: CustomerObject, _: unknown, ctx: Ctx) => (accountOf(c, ctx) ? 'customer' : null),
    date: (c: CustomerObject, _: unknown, ctx: Ctx) => wcDate(accountOf(c, ctx)?.createdAt),
    isPayingCustomer: async (c: CustomerObject, _: unknown, ctx: Ctx) => {
      const acc = accountOf(c, ctx);
      if (!acc) return false;
      return (await ctx.orders.listByCustomer(String(acc.id), 100)).some(
        (o) => PAID.has(o.status) || o.datePaid !== null,
      );
    },
    billing: (c: CustomerObject, _: unknown, ctx: Ctx) => {
      const acc = accountOf(c, ctx);
      return acc ? wire(addressFor(c.c.billing, acc, true)) : wire(c.c.billing);
    },
    shipping: (c: CustomerObject, _: unknown, ctx: Ctx) => {
      const acc = accountOf(c, ctx);
      return acc ? wire(addressFor(c.c.shipping, acc, false)) : wire(c.c.shipping);
    },
    orders: (c: CustomerObject, a: OrderListArgs, ctx: Ctx) => orderConnection(c, a, ctx),
  },
};
