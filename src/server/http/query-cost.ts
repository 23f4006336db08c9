/**
 * The query cost limit (GRAPHQL_MAX_COST): an estimate, before anything runs, of how many fields an operation
 * makes the engine resolve, refused when over the limit. The model:
 *
 *   - every field counts 1 (`__typename` and introspection count 0);
 *   - a field with `first`/`last` (a connection) multiplies the cost of its selection by the items it can
 *     return: the argument's value, literal or from the request's variables, clamped to COMMERCE_MAX_PAGE_SIZE
 *     as the resolvers clamp it; without one, COMMERCE_DEFAULT_PAGE_SIZE, the page a connection answers with
 *     (the few nested lists that answer up to a small cap instead — a product's gallery, its variations —
 *     are bounded by that cap);
 *   - a connection's `nodes` and `edges` are that page, not multiplied again; any other list of objects
 *     (a cart's shipping packages, an order's tax lines) counts LIST_ITEMS items;
 *   - fragments count where they are spread (twice when spread twice), each type condition as if it
 *     applied: an upper bound.
 *
 * So the cost grows with what the answer can hold, linearly, and nothing grows with depth alone: nesting is
 * the depth limit's business (graphql-armor, http/yoga.ts). graphql-armor's own cost rule is not used: it
 * multiplies every level by 1.5 and takes `first` only as a literal, which made a WooCommerce storefront's
 * cart document (one page of cart items, each with its product's variations) cost 9.7 million while a
 * document with `first: $n` for any n cost nothing.
 */
import {
  GraphQLError,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type GraphQLType,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** Items a list of objects without paging arguments is counted with. */
export const LIST_ITEMS = 10;

export type CostSettings = { maxCost: number; defaultPageSize: number; maxPageSize: number };

type Walk = {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  /** Each fragment's cost, worked out once: a fragment spread twice in one spread twice in … stays linear. */
  fragmentCosts: Map<string, number>;
  variables: Record<string, unknown>;
  settings: CostSettings;
  /** Set when a page size came from the request's variables: then the cost holds for these variables only. */
  readVariables: boolean;
};

function pageArgument(node: FieldNode, w: Walk): number | null {
  let size: number | null = null;
  for (const arg of node.arguments ?? []) {
    if (arg.name.value !== 'first' && arg.name.value !== 'last') continue;
    if (arg.value.kind === Kind.VARIABLE) w.readVariables = true;
    const n = argumentValue(arg.value, w.variables);
    if (n !== null) size = Math.max(size ?? 0, n);
  }
  return size;
}

function argumentValue(value: ValueNode, variables: Record<string, unknown>): number | null {
  const raw =
    value.kind === Kind.INT ? Number(value.value) : value.kind === Kind.VARIABLE ? variables[value.name.value] : null;
  return typeof raw === 'number' && Number.isFinite(raw) ? Math.max(0, Math.trunc(raw)) : null;
}

// Types are told apart without graphql's instanceof helpers: graphql ships CJS and ESM builds and the
// schema may come from the other one (as in yoga.ts).

/** The named type inside list and non-null wrappers. */
function namedType(type: GraphQLType): GraphQLNamedType {
  let t: GraphQLType = type;
  while ('ofType' in t && t.ofType) t = t.ofType as GraphQLType;
  return t as GraphQLNamedType;
}

/** A list, required or not ("[Rate]", "[Rate!]!"). */
const isList = (type: GraphQLType) => String(type).startsWith('[');

/** The fields of an object or interface type; null for a union (only `__typename` there) or a leaf. */
function fieldsOf(type: GraphQLNamedType | null | undefined): Record<string, GraphQLField<unknown, unknown>> | null {
  const get = (type as { getFields?: () => unknown } | null | undefined)?.getFields;
  return typeof get === 'function' ? (get.call(type) as Record<string, GraphQLField<unknown, unknown>>) : null;
}

const isComposite = (type: GraphQLNamedType | null | undefined): type is GraphQLNamedType =>
  fieldsOf(type) !== null || typeof (type as { getTypes?: unknown } | null | undefined)?.getTypes === 'function';

function fieldCost(node: FieldNode, def: GraphQLField<unknown, unknown>, parentIsConnection: boolean, w: Walk): number {
  if (!node.selectionSet) return 1;
  const type = namedType(def.type);
  if (!isComposite(type)) return 1;
  let items = 1;
  if (def.args.some((a) => a.name === 'first' || a.name === 'last')) {
    const asked = pageArgument(node, w);
    items = Math.min(asked ?? w.settings.defaultPageSize, w.settings.maxPageSize);
  } else if (isList(def.type) && !parentIsConnection) {
    items = LIST_ITEMS;
  }
  return 1 + items * selectionCost(node.selectionSet, type, w);
}

function selectionCost(set: SelectionSetNode, parent: GraphQLNamedType, w: Walk): number {
  // A connection's `nodes`/`edges` are the page its field already counted.
  const connection = parent.name.endsWith('Connection');
  let cost = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      const name = selection.name.value;
      if (name.startsWith('__')) continue;
      const def = fieldsOf(parent)?.[name];
      if (def) cost += fieldCost(selection, def, connection, w);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const type = selection.typeCondition ? w.schema.getType(selection.typeCondition.name.value) : parent;
      if (isComposite(type)) cost += selectionCost(selection.selectionSet, type, w);
    } else {
      const name = selection.name.value;
      let fragmentCost = w.fragmentCosts.get(name);
      if (fragmentCost === undefined) {
        const fragment = w.fragments.get(name);
        const type = fragment && w.schema.getType(fragment.typeCondition.name.value);
        fragmentCost = fragment && isComposite(type) ? selectionCost(fragment.selectionSet, type, w) : 0;
        w.fragmentCosts.set(name, fragmentCost);
      }
      cost += fragmentCost;
    }
  }
  return cost;
}

/**
 * Costs that do not depend on the request's variables, per parsed document and operation name. Yoga hands
 * every request with the same text the same parsed document (its parser cache), so the storefront's
 * documents — whose page sizes are literals — are walked once, not on every request.
 */
const fixedCosts = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, number>>>();
const costKey = (operationName: string | null | undefined, settings: CostSettings) =>
  `${operationName ?? ''} ${settings.defaultPageSize} ${settings.maxPageSize}`;

/** The cost of the operation a request runs (validated already: fragments exist and do not cycle). */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown>,
  settings: CostSettings,
): number {
  const known = fixedCosts.get(schema)?.get(document)?.get(costKey(operationName, settings));
  if (known !== undefined) return known;
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
  if (!operation) return 0;
  const root =
    operation.operation === 'query'
      ? schema.getQueryType()
      : operation.operation === 'mutation'
        ? schema.getMutationType()
        : schema.getSubscriptionType();
  if (!root) return 0;
  const fragments = new Map(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  // A variable the request leaves out takes its default (`$first: Int = 100`).
  const withDefaults: Record<string, unknown> = {};
  for (const v of operation.variableDefinitions ?? [])
    if (v.defaultValue?.kind === Kind.INT) withDefaults[v.variable.name.value] = Number(v.defaultValue.value);
  Object.assign(withDefaults, variables);
  const walk: Walk = {
    schema,
    fragments,
    fragmentCosts: new Map(),
    variables: withDefaults,
    settings,
    readVariables: false,
  };
  const cost = selectionCost(operation.selectionSet, root, walk);
  if (!walk.readVariables) {
    let bySchema = fixedCosts.get(schema);
    if (!bySchema) {
      bySchema = new WeakMap();
      fixedCosts.set(schema, bySchema);
    }
    let byOperation = bySchema.get(document);
    if (!byOperation) {
      byOperation = new Map();
      bySchema.set(document, byOperation);
    }
    byOperation.set(costKey(operationName, settings), cost);
  }
  return cost;
}

/** Refuses an operation whose cost is over the limit, before it runs; the error says the limit and the cost. */
export function useQueryCostLimit(settings: CostSettings): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const cost = operationCost(
        args.schema,
        args.document,
        args.operationName,
        (args.variableValues ?? {}) as Record<string, unknown>,
        settings,
      );
      if (cost > settings.maxCost)
        setResultAndStopExecution({
          errors: [
            new GraphQLError(`Query Cost limit of ${settings.maxCost} exceeded, found ${cost}.`, {
              extensions: { code: 'QUERY_TOO_EXPENSIVE' },
            }),
          ],
        });
    },
  };
}
