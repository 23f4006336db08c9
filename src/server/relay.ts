/**
 * Relay pagination over in-memory lists. Cursors are WPGraphQL's: base64 `arrayconnection:<id>`, where
 * <id> is the node's database id. A cursor marks a node, not a position: paging continues after that node
 * in the current order even if the list changed meanwhile (keyset pagination), and a cursor whose node
 * is gone is rejected with a clear error.
 */
import { GraphQLError } from 'graphql';

export type PageArgs = { first?: number | null; after?: string | null; last?: number | null; before?: string | null };
export type PageLimits = { defaultPageSize: number; maxPageSize: number };

export function encodeCursor(id: number | string): string {
  return Buffer.from(`arrayconnection:${id}`).toString('base64');
}

export function decodeCursor(cursor: string): string {
  const decoded = Buffer.from(cursor, 'base64').toString('utf8');
  const m = /^arrayconnection:(.+)$/.exec(decoded);
  if (!m)
    throw new GraphQLError(`Invalid cursor "${cursor}": expected a cursor returned by this API.`, {
      extensions: { code: 'BAD_USER_INPUT' },
    });
  return m[1]!;
}

function count(name: 'first' | 'last', value: number | null | undefined, limits: PageLimits): number | null {
  if (value === null || value === undefined) return null;
  if (value < 0)
    throw new GraphQLError(`Argument "${name}" must be a non-negative integer (got ${value}).`, {
      extensions: { code: 'BAD_USER_INPUT' },
    });
  return Math.min(value, limits.maxPageSize);
}

export type Connection<T> = {
  nodes: T[];
  edges: { cursor: string; node: T }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  found: number;
};

/**
 * Slice `items` per the Relay arguments. `boundary(cursorId, side)` returns the index a cursor splits the
 * list at (items before it are < index); the default finds the node by id.
 */
export function paginate<T>(
  items: T[],
  args: PageArgs,
  limits: PageLimits,
  idOf: (item: T) => number | string,
  boundary?: (cursorId: string) => { before: number; after: number } | null,
): Connection<T> {
  const first = count('first', args.first, limits);
  const last = count('last', args.last, limits);
  const locate =
    boundary ??
    ((cursorId: string) => {
      const i = items.findIndex((it) => String(idOf(it)) === cursorId);
      return i === -1 ? null : { before: i, after: i + 1 };
    });
  let start = 0;
  let end = items.length;
  for (const [name, cursor] of [
    ['after', args.after],
    ['before', args.before],
  ] as const) {
    if (!cursor) continue;
    const id = decodeCursor(cursor);
    const at = locate(id);
    if (!at)
      throw new GraphQLError(`Invalid cursor "${cursor}" for "${name}": the item it points at no longer exists.`, {
        extensions: { code: 'BAD_USER_INPUT' },
      });
    if (name === 'after') start = Math.max(start, at.after);
    else end = Math.min(end, at.before);
  }
  if (end < start) end = start;
  if (first !== null) end = Math.min(end, start + first);
  if (last !== null) start = Math.max(start, end - last);
  if (first === null && last === null) end = Math.min(end, start + limits.defaultPageSize);
  const nodes = items.slice(start, end);
  const edges = nodes.map((node) => ({ cursor: encodeCursor(idOf(node)), node }));
  return {
    nodes,
    edges,
    pageInfo: {
      hasNextPage: end < items.length,
      hasPreviousPage: start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    found: items.length,
  };
}
