import type { GraphQLContext } from '../context.ts';
import { statesOf } from '../../lib/address/states.ts';
import { ALL_COUNTRIES } from './countries.ts';

export const geoResolvers = {
  RootQuery: {
    allowedCountries: (_: unknown, __: unknown, ctx: GraphQLContext) => ctx.config.allowedCountries,
    countries: () => ALL_COUNTRIES,
    countryStates: (_: unknown, a: { country: string }) => statesOf(a.country),
  },
};
