/**
 * Whole-response cache for catalog reads. A catalog query's result depends only on the document, the
 * variables and the catalog (the snapshot's catalog + stock versions), so identical requests — the
 * storefront's product lists and product pages — are answered from memory, serialised once. Any catalog
 * or stock change moves the versions, so stale entries are never served: they are dropped as soon as the
 * versions move (every order bumps the stock version, so under shopping traffic entries of old versions
 * would otherwise fill the cache to its cap with answers nobody can hit). Entries also expire after a
 * minute, because sale windows depend on the clock. Only the serialised text is kept (not the result
 * object as well, which costs several times the text and is never read again), within an entry and a
 * byte cap.
 */
import { Kind, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GraphQLContext } from '../context.ts';

/** Root fields whose answers depend only on the catalog (not on the session or the viewer). */
const CACHEABLE_ROOT_FIELDS = new Set([
  '__typename',
  'catalogVersion',
  'product',
  'products',
  'productVariation',
  'productCategory',
  'productCategories',
  'terms',
  'allowedCountries',
  'countries',
  'countryStates',
]);
const MAX_ENTRIES = 500;
/** Bound on the cached JSON text (UTF-16 code units, plus each key), so a few huge lists cannot take over the heap. */
const MAX_BYTES = 16 * 1024 * 1024;
/** Sale windows depend on the clock: a cached answer is recomputed at least this often. */
export const CATALOG_RESPONSE_TTL_MS = 60_000;
const TTL_MS = CATALOG_RESPONSE_TTL_MS;

type Entry = { at: number; text: string; bytes: number };

export type CatalogResponseCacheLimits = { maxEntries: number; maxBytes: number };

/** What the cache holds now (tests check it stays within its caps and keeps only current versions). */
export type CatalogResponseCacheStats = { entries: number; bytes: number; versions: string };

/**
 * Put on the server context by the catalog fast path (fast-path.ts): this plugin fills it in when the
 * request was a catalog read answered without errors, so the fast path may keep the HTTP response.
 * `versions` are the snapshot versions the answer was computed from, `at` when it was computed.
 */
export type FastPathTag = { cacheable: boolean; versions: string; at: number };
export const FAST_PATH_TAG = 'meshfrontFastPath';

export const catalogVersionsKey = (snap: { catalogVersion: number; stockVersion: number }) =>
  `${snap.catalogVersion}:${snap.stockVersion}`;

function cacheableOperation(document: DocumentNode, operationName: string | null | undefined): boolean {
  const ops = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const op = operationName ? ops.find((o) => o.name?.value === operationName) : ops.length === 1 ? ops[0] : undefined;
  return op !== undefined && isCatalogOperation(op);
}

/**
 * Whether an operation (a resolver's `info.operation`) is a catalog read: a query of root fields that
 * depend on the catalog alone. Its answer is the same for every caller; any other operation is the caller's own.
 */
export function isCatalogOperation(op: OperationDefinitionNode): boolean {
  if (op.operation !== 'query') return false;
  return op.selectionSet.selections.every(
    (s) => s.kind === Kind.FIELD && CACHEABLE_ROOT_FIELDS.has(s.name.value) && !s.directives?.length,
  );
}

/**
 * Judgements per document and operation name: one document may hold a catalog query and a query of the
 * customer's data, so the operation a request names decides, never the document alone.
 */
const catalogReadJudgements = new WeakMap<DocumentNode, Map<string, boolean>>();

/**
 * Whether the operation a request runs is a catalog read: only root fields whose answers depend on the
 * catalog alone, the same for every caller (so it may be cached, here and by HTTP caches).
 */
export function isCatalogRead(document: DocumentNode, operationName: string | null | undefined): boolean {
  let byName = catalogReadJudgements.get(document);
  if (!byName) {
    byName = new Map();
    catalogReadJudgements.set(document, byName);
  }
  let judged = byName.get(operationName ?? '');
  if (judged === undefined) {
    judged = cacheableOperation(document, operationName);
    byName.set(operationName ?? '', judged);
  }
  return judged;
}

export function useCatalogResponseCache(
  limits: CatalogResponseCacheLimits = { maxEntries: MAX_ENTRIES, maxBytes: MAX_BYTES },
  stats?: CatalogResponseCacheStats,
): Plugin {
  const entries = new Map<string, Entry>();
  let bytes = 0;
  /** The versions every entry belongs to; entries of any other versions can never be hit again. */
  let currentVersions = '';
  const documentKeys = new WeakMap<DocumentNode, string>();
  let documentCounter = 0;
  const remove = (key: string, entry: Entry) => {
    entries.delete(key);
    bytes -= entry.bytes;
  };
  const report = () => {
    if (stats) Object.assign(stats, { entries: entries.size, bytes, versions: currentVersions });
  };
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const document = args.document;
      if (!isCatalogRead(document, args.operationName)) return;
      let docKey = documentKeys.get(document);
      if (docKey === undefined) {
        // Yoga's parser cache hands out one DocumentNode per distinct query text, so identity is a good key.
        docKey = `d${++documentCounter}`;
        documentKeys.set(document, docKey);
      }
      const ctx = args.contextValue as unknown as GraphQLContext & { [FAST_PATH_TAG]?: FastPathTag };
      const snap = await ctx.catalog.snapshot();
      const versions = catalogVersionsKey(snap);
      if (versions !== currentVersions) {
        entries.clear();
        bytes = 0;
        currentVersions = versions;
        report();
      }
      const tag = ctx[FAST_PATH_TAG];
      const key = `${versions}:${ctx.locale}:${docKey}:${args.operationName ?? ''}:${JSON.stringify(args.variableValues ?? {})}`;
      const hit = entries.get(key);
      const now = Date.now();
      if (hit && now - hit.at < TTL_MS) {
        // The original computation time travels with the answer, so the fast path's copy expires with it.
        if (tag) Object.assign(tag, { cacheable: true, versions, at: hit.at });
        // Every consumer (Yoga's HTTP answer, the fast path) takes the text; nothing reads `data` of a hit.
        setResultAndStopExecution({ stringify: () => hit.text } as never);
        return;
      }
      if (hit) remove(key, hit);
      return {
        onExecuteDone({ result }) {
          const r = result as { errors?: unknown[]; data?: unknown };
          if (!r || typeof (r as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function' || r.errors?.length)
            return;
          // The answer may still be sent and kept by the fast path (it checks the versions itself), but
          // an answer computed from versions that moved on meanwhile is not worth keeping here.
          if (tag) Object.assign(tag, { cacheable: true, versions, at: now });
          if (versions !== currentVersions) return;
          const text = JSON.stringify(r);
          const size = text.length + key.length;
          if (size > limits.maxBytes) return;
          const previous = entries.get(key);
          if (previous) remove(key, previous);
          for (const [k, e] of entries) {
            if (entries.size < limits.maxEntries && bytes + size <= limits.maxBytes) break;
            remove(k, e);
          }
          entries.set(key, { at: now, text, bytes: size });
          bytes += size;
          report();
        },
      };
    },
  };
}
