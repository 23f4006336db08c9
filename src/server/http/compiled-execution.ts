/**
 * Compiled execution: a trusted document (the storefront's own operations and those of registered
 * clients, http/trusted-documents.ts) runs through a function compiled for it once (graphql-jit), not
 * through graphql's general executor, which walks the document's selections, looks up every field's
 * definition and coerces its arguments again on every request. The storefront sends the same few dozen
 * documents again and again, so the compiled functions stay in a bounded cache keyed by the document's
 * text; parsing, validation (cached by Yoga), the query limits and the trusted-documents check run before
 * this as before. Any other document (where TRUSTED_DOCUMENTS_ONLY is off) keeps the general executor:
 * compiling costs more than one execution, and a stream of new documents would only feed the compiler.
 *
 * Two things graphql-jit does differently from the executor it replaces, corrected here:
 * - its cache knows a document by its text alone, so a document holding several operations would run the
 *   first one it compiled for every operation name: such documents (none of the storefront's) keep the
 *   general executor;
 * - it reports variables that cannot be coerced ("Variable $id of non-null type ID! must not be null") as
 *   a result without data whose errors come from graphql's other build (CommonJS, while Yoga uses the ES
 *   module build), which Yoga takes for an unexpected failure (500). They are the client's mistake: 400
 *   with BAD_USER_INPUT, as the general executor answers.
 */
import { useGraphQlJit } from '@envelop/graphql-jit';
import { GraphQLError, Kind, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** Compiled documents kept (the storefront's own are about fifty). */
const MAX_COMPILED = 500;

function singleOperation(document: DocumentNode): boolean {
  let operations = 0;
  for (const d of document.definitions) if (d.kind === Kind.OPERATION_DEFINITION && ++operations > 1) return false;
  return operations === 1;
}

/** A bounded map with least-recently-used eviction (a Map keeps insertion order). */
function boundedCache<V>(max: number) {
  const entries = new Map<string, V>();
  return {
    get(key: string): V | undefined {
      const value = entries.get(key);
      if (value !== undefined) {
        entries.delete(key);
        entries.set(key, value);
      }
      return value;
    },
    set(key: string, value: V): void {
      entries.delete(key);
      entries.set(key, value);
      if (entries.size > max) entries.delete(entries.keys().next().value!);
    },
  };
}

type ErrorLike = {
  message: string;
  extensions?: Record<string, unknown>;
  path?: readonly (string | number)[];
  originalError?: Error | null;
};

/** A request error of a compiled execution as the general executor reports it. */
function asRequestError(error: ErrorLike): GraphQLError {
  return new GraphQLError(error.message, {
    extensions: { ...error.extensions, code: error.extensions?.code ?? 'BAD_USER_INPUT', http: { status: 400 } },
  });
}

/** The request's query text, from the context Yoga builds (it carries the request's parameters). */
const queryOf = (context: unknown) => (context as { params?: { query?: unknown } } | null)?.params?.query;

/** Where compiled documents are kept, by document text (the plugin's own cache interface). */
export type CompiledDocuments = NonNullable<Parameters<typeof useGraphQlJit>[1]>['cache'];

export function useCompiledExecution(
  trusted: (query: string) => boolean,
  cache: CompiledDocuments = boundedCache(MAX_COMPILED),
): Plugin[] {
  // Decided once per request: both hooks below ask, and the answer cannot change within a request.
  const decided = new WeakMap<object, boolean>();
  const compiled = (document: DocumentNode, context: unknown) => {
    const known = typeof context === 'object' && context !== null ? decided.get(context) : undefined;
    if (known !== undefined) return known;
    const query = queryOf(context);
    const answer = typeof query === 'string' && singleOperation(document) && trusted(query);
    if (typeof context === 'object' && context !== null) decided.set(context, answer);
    return answer;
  };
  return [
    useGraphQlJit(
      {},
      {
        enableIf: ({ document, contextValue }) => compiled(document, contextValue),
        cache,
      },
    ) as Plugin,
    {
      onExecute({ args }) {
        if (!compiled(args.document, args.contextValue)) return;
        return {
          onExecuteDone({ result, setResult }) {
            // Only results without a data entry: errors raised before execution began. A field error
            // that nulls the whole answer (`data: null`) stays as it is, with its path.
            if (!('errors' in result) || !result.errors?.length || 'data' in result) return;
            setResult({ ...result, errors: result.errors.map((e) => asRequestError(e as ErrorLike)) });
          },
        };
      },
    },
  ];
}
