/**
 * The engine's two GraphQL schemas as SDL, made by the engine's own code, and the check that the
 * documents sent to them are valid against them. scripts/graphql/codegen.ts writes the SDL to
 * src/graphql/generated/ (the schema GraphQL Code Generator reads) and fails `--check` when a document
 * and its schema disagree.
 *
 * - storefront: the schema /graphql serves, assembled from the per-domain SDL and resolvers
 *   (src/server/schema). The engine adds a term type and a TaxonomyEnum value for each global attribute
 *   of its catalog; the SDL here has the built-in attributes only, the ones every catalog has, which is
 *   what the storefront's documents may rely on.
 * - admin: the schema /api/admin/graphql serves (src/server/admin/schema.ts).
 *
 * Documents are checked as they go on the wire: each operation with every fragment it spreads
 * (composeOperations, the same composition as the trusted-documents list), against all of GraphQL's
 * validation rules.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { GraphQLSchema } from 'graphql';
import { adminTypeDefs } from '../../src/server/admin/schema.ts';
import { composeOperations } from '../../src/server/http/trusted-documents.ts';
import { buildSchema } from '../../src/server/schema/index.ts';

const root = path.resolve(import.meta.dirname, '../..');

// graphql-js refuses a schema made by another copy of itself. The engine's schema comes from graphql-yoga,
// which loads graphql's CommonJS build; a runner that resolves `import 'graphql'` to its ES module build
// (vitest does) would make two copies, so these functions come from the build the engine uses.
const {
  buildSchema: buildSdlSchema,
  lexicographicSortSchema,
  printSchema,
  validate,
}: typeof import('graphql') = createRequire(import.meta.url)('graphql');

export interface EngineApi {
  /** 'storefront' | 'admin' */
  name: string;
  /** Where the SDL is written (relative to the repository). */
  sdlFile: string;
  /** The operations sent to this API (one per file) and the fragments beside them. */
  operationsDir: string;
  fragmentsDir: string;
  schema: () => GraphQLSchema;
}

export const ENGINE_APIS: readonly EngineApi[] = [
  {
    name: 'storefront',
    sdlFile: 'src/graphql/generated/schema.graphql',
    operationsDir: 'src/graphql/operations',
    fragmentsDir: 'src/graphql/fragments',
    schema: () => buildSchema([]),
  },
  {
    name: 'admin',
    sdlFile: 'src/graphql/generated/admin-schema.graphql',
    operationsDir: 'src/server/admin/operations',
    fragmentsDir: 'src/server/admin/fragments',
    schema: () => buildSdlSchema(adminTypeDefs),
  },
];

/**
 * The schema as SDL, types sorted by name: the file changes only when the schema does, not when a
 * domain's SDL moves within src/server/schema.
 */
export function schemaSdl(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}

/**
 * What is wrong with the documents of `operationsDir` (with the fragments of `fragmentsDir`) against
 * `schema`: one line per problem, "file: message (line:column)"; empty when every operation is valid.
 * An unknown field, argument or type, a variable of the wrong type, a fragment spread that does not
 * exist: anything the engine would refuse the request for.
 */
export function documentProblems(schema: GraphQLSchema, operationsDir: string, fragmentsDir: string): string[] {
  const problems: string[] = [];
  let operations: ReturnType<typeof composeOperations>;
  try {
    operations = composeOperations(path.resolve(root, operationsDir), path.resolve(root, fragmentsDir));
  } catch (error) {
    return [`${operationsDir}: ${error instanceof Error ? error.message : String(error)}`];
  }
  if (!operations.length) return [`${operationsDir}: no operations found`];
  for (const operation of operations) {
    for (const error of validate(schema, operation.document)) {
      problems.push(`${path.join(operationsDir, operation.file)} (${operation.name}): ${error.message}`);
    }
  }
  return problems;
}
