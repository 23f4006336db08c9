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
import { accountTypeDefs, downloadTypeDefs, reviewTypeDefs, wishlistTypeDefs } from './accounts.ts';
import { wishlistResolvers } from '../wishlist/resolvers.ts';
import { downloadResolvers } from '../downloads/resolvers.ts';
import { reviewResolvers } from '../reviews/resolvers.ts';
import { customerResolvers } from '../customers/resolvers.ts';
import { authResolvers } from '../auth/resolvers.ts';

function mergeResolvers(...maps: Record<string, Record<string, unknown>>[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const map of maps) for (const [type, fields] of Object.entries(map)) out[type] = { ...(out[type] ?? {}), ...fields };
  return out;
}

/** `attributeTaxonomies`: the catalog's global attributes (pa_…), each becoming a term type and a TaxonomyEnum value. */
export function buildSchema(attributeTaxonomies: string[]) {
  const taxonomies = [...new Set([...BUILT_IN_ATTRIBUTE_TAXONOMIES, ...attributeTaxonomies])].sort();
  return createSchema<GraphQLContext>({
    typeDefs: [baseTypeDefs, catalogTypeDefs(taxonomies), geoTypeDefs, cartTypeDefs, orderTypeDefs, accountTypeDefs, reviewTypeDefs, downloadTypeDefs, wishlistTypeDefs],
    resolvers: mergeResolvers(
      { RootQuery: {}, RootMutation: { _noop: () => null } },
      catalogResolvers(taxonomies, attributeTypeName, taxonomyEnumValue) as Record<string, Record<string, unknown>>,
      geoResolvers,
      cartResolvers as Record<string, Record<string, unknown>>,
      orderResolvers as Record<string, Record<string, unknown>>,
      customerResolvers as Record<string, Record<string, unknown>>,
      authResolvers as Record<string, Record<string, unknown>>,
      reviewResolvers as Record<string, Record<string, unknown>>,
      downloadResolvers as Record<string, Record<string, unknown>>,
      wishlistResolvers as Record<string, Record<string, unknown>>,
    ),
  });
}
