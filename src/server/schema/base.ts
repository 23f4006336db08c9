/** Shared GraphQL types: the Relay basics and the root types every domain extends. */

/** The SDL of a Relay connection `<name>` over `<node>` with optional extra connection/edge fields. */
export function connection(name: string, node: string, extra: { connection?: string; edge?: string } = {}): string {
  return `
type ${name} {
  nodes: [${node}!]!
  edges: [${name}Edge!]!
  pageInfo: PageInfo!
  ${extra.connection ?? ''}
}
type ${name}Edge {
  cursor: String
  node: ${node}!
  ${extra.edge ?? ''}
}`;
}

export const baseTypeDefs = /* GraphQL */ `
"An object with a globally unique id (Relay)."
interface Node {
  id: ID!
}

"Relay page information of a connection."
type PageInfo {
  hasNextPage: Boolean!
  hasPreviousPage: Boolean!
  startCursor: String
  endCursor: String
}

enum OrderEnum {
  ASC
  DESC
}

type MetaData {
  id: ID
  key: String!
  value: String
}

type RootQuery {
  "The engine's catalog version (bumped by every catalog change)."
  catalogVersion: Int
}

type RootMutation {
  "Placeholder so the mutation root exists; the cart, checkout and account domains add the real mutations."
  _noop: Boolean
}

schema {
  query: RootQuery
  mutation: RootMutation
}
`;
