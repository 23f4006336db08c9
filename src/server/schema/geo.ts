import { ALL_COUNTRIES } from '../geo/countries.ts';

export const geoTypeDefs = /* GraphQL */ `
"ISO 3166-1 alpha-2 country codes."
enum CountriesEnum {
  ${ALL_COUNTRIES.join('\n  ')}
}

type CountryState {
  code: String!
  name: String!
}

extend type RootQuery {
  "Countries the shop sells to."
  allowedCountries: [CountriesEnum]
  "Every country."
  countries: [CountriesEnum]
  "States/provinces of a country; [] when it has none."
  countryStates(country: CountriesEnum!): [CountryState]
}
`;
