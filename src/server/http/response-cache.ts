/**
 * Whole-response cache for catalog reads. A catalog query's result depends only on the document, the
 * variables and the catalog (the snapshot's catalog + stock versions), so identical requests — the
 * storefront's product lists and product pages — are answered from memory, serialised once. Any catalog
 * or stock change moves the versions, so stale entries are never served (and are evicted by size).
 * Entries also expire after a minute, because sale windows depend on the clock.
 */
import { Kind, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GraphQLContext } from '../context.ts';

/** Root fields whose answers depend only on the catalog (not on the session or the viewer). */
const CACHEABLE_ROOT_FIELDS = new Set([
  '__typename', 'catalogVersion', 'product', 'products', 'productVariation', 'productCategory', 'productCategories', 'terms',
  'allowedCountries', 'countries', 'countryStates',
]);
const MAX_ENTRIES = 500;
/** Sale windows depend on the clock: a cached answer is recomputed at least this often. */
export const CATALOG_RESPONSE_TTL_MS = 60_000;
const TTL_MS = CATALOG_RESPONSE_TTL_MS;

type Entry = { at: number; text: string; result: Record<string, unknown> };

/**
 * Put on the server context by the catalog fast path (fast-path.ts): this plugin fills it in when the
 * request was a catalog read answered without errors, so the fast path may keep the HTTP response.
 * `versions` are the snapshot versions the answer was computed from, `at` when it was computed.
 */
export type FastPathTag = { cacheable: boolean; versions: string; at: number };
export const FAST_PATH_TAG = 'meshfrontFastPath';

export const catalogVersionsKey = (snap: { catalogVersion: number; stockVersion: number }) => `${snap.catalogVersion}:${snap.stockVersion}`;

function cacheableOperation(document: DocumentNode, operationName: string | null | undefined): boolean {
  const ops = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const op = operationName ? ops.find((o) => o.name?.value === operationName) : ops.length === 1 ? ops[0] : undefined;
  if (!op || op.operation !== 'query') return false;
  return op.selectionSet.selections.every((s) => s.kind === Kind.FIELD && CACHEABLE_ROOT_FIELDS.has(s.name.value) && !s.directives?.length);
}

export function useCatalogResponseCache(): Plugin {
  const entries = new Map<string, Entry>();
  const documentKeys = new WeakMap<DocumentNode, string | null>();
  let documentCounter = 0;
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const document = args.document;
      let docKey = documentKeys.get(document);
      if (docKey === undefined) {
        // Yoga's parser cache hands out one DocumentNode per distinct query text, so identity is a good key.
        docKey = cacheableOperation(document, args.operationName) ? `d${++documentCounter}` : null;
        documentKeys.set(document, docKey);
      }
      if (docKey === null) return;
      const ctx = args.contextValue as unknown as GraphQLContext & { [FAST_PATH_TAG]?: FastPathTag };
      const snap = await ctx.catalog.snapshot();
      const versions = catalogVersionsKey(snap);
      const tag = ctx[FAST_PATH_TAG];
      const key = `${versions}:${docKey}:${args.operationName ?? ''}:${JSON.stringify(args.variableValues ?? {})}`;
      const hit = entries.get(key);
      const now = Date.now();
      if (hit && now - hit.at < TTL_MS) {
        // The original computation time travels with the answer, so the fast path's copy expires with it.
        if (tag) Object.assign(tag, { cacheable: true, versions, at: hit.at });
        setResultAndStopExecution(Object.assign({}, hit.result, { stringify: () => hit.text }) as never);
        return;
      }
      return {
        onExecuteDone({ result }) {
          const r = result as { errors?: unknown[]; data?: unknown };
          if (!r || typeof (r as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function' || r.errors?.length) return;
          if (entries.size >= MAX_ENTRIES) {
            for (const [k, e] of entries) if (now - e.at >= TTL_MS || !k.startsWith(`${versions}:`)) entries.delete(k);
            if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
          }
          entries.set(key, { at: now, text: JSON.stringify(r), result: r as Record<string, unknown> });
          if (tag) Object.assign(tag, { cacheable: true, versions, at: now });
        },
      };
    },
  };
}
