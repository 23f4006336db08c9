import type { GraphQLContext } from '../context.ts';
import { ALL_COUNTRIES, statesOf } from './countries.ts';

export const geoResolvers = {
  RootQuery: {
    allowedCountries: (_: unknown, __: unknown, ctx: GraphQLContext) => ctx.config.allowedCountries,
    countries: () => ALL_COUNTRIES,
    countryStates: (_: unknown, a: { country: string }) => statesOf(a.country),
  },
};
