/** customer.downloadableItems and the signed DownloadableItem.url (also on Order.downloadableItems). */
import { GraphQLError } from 'graphql';
import type { AccountContext } from '../context.ts';
import type { CustomerObject } from '../customers/resolvers.ts';
import { paginate, type PageArgs } from '../relay.ts';
import type { DownloadFilter, DownloadNode } from './service.ts';

type Ctx = AccountContext;

export const downloadResolvers = {
  Customer: {
    downloadableItems: async (c: CustomerObject, a: PageArgs & { where?: DownloadFilter | null }, ctx: Ctx) => {
      const v = ctx.auth.viewer;
      if (!v || String(v.id) !== c.customerId) {
        if (ctx.auth.error) throw new GraphQLError(ctx.auth.error, { extensions: { code: 'UNAUTHENTICATED' } });
        return paginate([], a, { defaultPageSize: 100, maxPageSize: 100 }, () => 0);
      }
      const list = await ctx.accounts.downloads.listForCustomer(String(v.id), a.where ?? {}, 1000);
      return paginate(list, a, { defaultPageSize: 100, maxPageSize: 100 }, (d) => d.id);
    },
  },
  DownloadableItem: {
    url: (d: DownloadNode, _: unknown, ctx: Ctx) => ctx.accounts.downloads.urlFor(d),
  },
};
