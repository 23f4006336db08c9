/** customer.wishlist and addToWishlist / removeFromWishlist / mergeWishlist (logged-in customers only). */
import { GraphQLError } from 'graphql';
import type { AccountContext } from '../context.ts';
import { accountErrors, customerOf, requireViewer, type CustomerObject } from '../customers/resolvers.ts';
import { paginate, type PageArgs } from '../relay.ts';

type Ctx = AccountContext;
type Mid = { clientMutationId?: string | null };

async function payload(ctx: Ctx, input: Mid, productIds: number[]) {
  return {
    clientMutationId: input.clientMutationId ?? null,
    productIds,
    customer: await customerOf(ctx, ctx.auth.viewer!),
  };
}

export const wishlistResolvers = {
  Customer: {
    wishlist: async (c: CustomerObject, a: PageArgs, ctx: Ctx) => {
      const v = ctx.auth.viewer;
      if (!v || String(v.id) !== c.customerId) {
        if (ctx.auth.error) throw new GraphQLError(ctx.auth.error, { extensions: { code: 'UNAUTHENTICATED' } });
        return paginate([], a, { defaultPageSize: 100, maxPageSize: 200 }, () => 0);
      }
      const snap = await ctx.catalog.snapshot();
      const products = (await ctx.accounts.wishlist.productIds(v.id))
        .map((id) => snap.productsById.get(id))
        .filter((p) => p && p.status === 'publish');
      return paginate(
        products as NonNullable<(typeof products)[number]>[],
        a,
        { defaultPageSize: 100, maxPageSize: 200 },
        (p) => p.id,
      );
    },
  },
  RootMutation: {
    addToWishlist: (_: unknown, { input }: { input: Mid & { productId: number } }, ctx: Ctx) => {
      const v = requireViewer(ctx);
      return accountErrors(async () => payload(ctx, input, await ctx.accounts.wishlist.add(v.id, input.productId)));
    },
    removeFromWishlist: (_: unknown, { input }: { input: Mid & { productId: number } }, ctx: Ctx) => {
      const v = requireViewer(ctx);
      return accountErrors(async () => payload(ctx, input, await ctx.accounts.wishlist.remove(v.id, input.productId)));
    },
    mergeWishlist: (_: unknown, { input }: { input: Mid & { productIds: number[] } }, ctx: Ctx) => {
      const v = requireViewer(ctx);
      if (input.productIds.length > 1000)
        throw new GraphQLError('Too many products in one wishlist merge.', { extensions: { code: 'BAD_USER_INPUT' } });
      return accountErrors(async () => payload(ctx, input, await ctx.accounts.wishlist.merge(v.id, input.productIds)));
    },
  },
};
