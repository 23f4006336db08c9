/** Builds the executable schema from each domain's SDL and resolvers. */
import { createSchema } from 'graphql-yoga';
import { catalogResolvers } from '../catalog/resolvers.ts';
import type { GraphQLContext } from '../context.ts';
import { geoResolvers } from '../geo/resolvers.ts';
import { baseTypeDefs } from './base.ts';
import { attributeTypeName, BUILT_IN_ATTRIBUTE_TAXONOMIES, catalogTypeDefs, taxonomyEnumValue } from './catalog.ts';
import { geoTypeDefs } from './geo.ts';
import { cartTypeDefs } from './cart.ts';
import { orderTypeDefs } from './orders.ts';
import { cartResolvers } from '../cart/resolvers.ts';
import { orderResolvers } from '../orders/resolvers.ts';
import { checkoutResolvers } from '../checkout/resolvers.ts';
import { invoiceResolvers } from '../invoices/resolvers.ts';
import { accountTypeDefs, downloadTypeDefs, privacyTypeDefs, reviewTypeDefs, wishlistTypeDefs } from './accounts.ts';
import { wishlistResolvers } from '../wishlist/resolvers.ts';
import { downloadResolvers } from '../downloads/resolvers.ts';
import { reviewResolvers } from '../reviews/resolvers.ts';
import { customerResolvers } from '../customers/resolvers.ts';
import { authResolvers } from '../auth/resolvers.ts';
import { privacyResolvers } from '../privacy/resolvers.ts';
import { mergeResolvers, type ResolverMap } from './merge.ts';
import { storefrontTypeDefs } from './storefront.ts';
import { storefrontResolvers } from '../storefront/resolvers.ts';

/** `attributeTaxonomies`: the catalog's global attributes (pa_…), each becoming a term type and a TaxonomyEnum value. */
export function buildSchema(attributeTaxonomies: string[]) {
  const taxonomies = [...new Set([...BUILT_IN_ATTRIBUTE_TAXONOMIES, ...attributeTaxonomies])].sort();
  return createSchema<GraphQLContext>({
    typeDefs: [
      baseTypeDefs,
      catalogTypeDefs(taxonomies),
      geoTypeDefs,
      cartTypeDefs,
      orderTypeDefs,
      accountTypeDefs,
      reviewTypeDefs,
      downloadTypeDefs,
      wishlistTypeDefs,
      privacyTypeDefs,
      storefrontTypeDefs,
    ],
    resolvers: mergeResolvers({
      base: { RootQuery: {}, RootMutation: { _noop: () => null } },
      catalog: catalogResolvers(taxonomies, attributeTypeName, taxonomyEnumValue) as ResolverMap,
      geo: geoResolvers,
      cart: cartResolvers as ResolverMap,
      orders: orderResolvers as ResolverMap,
      checkout: checkoutResolvers as ResolverMap,
      invoices: invoiceResolvers as ResolverMap,
      customers: customerResolvers as ResolverMap,
      auth: authResolvers as ResolverMap,
      reviews: reviewResolvers as ResolverMap,
      downloads: downloadResolvers as ResolverMap,
      wishlist: wishlistResolvers as ResolverMap,
      privacy: privacyResolvers as ResolverMap,
      storefront: storefrontResolvers as ResolverMap,
    }),
  });
}
