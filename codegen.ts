/**
 * GraphQL Code Generator: the TypeScript types of the engine's two schemas and of the operations sent
 * to them, in src/graphql/generated/. Run `npm run codegen` (scripts/graphql/codegen.ts), which first
 * prints each schema from the engine's own code to the .graphql file named here; `npm test -- rules`
 * runs it with `--check`.
 *
 * typescript + typescript-operations rather than the client preset: the clients send an operation by
 * its name and load its .graphql text lazily (src/graphql/registry.ts), so an island downloads only the
 * documents it uses and the wire text stays what the trusted-documents list holds. They need the result
 * and variables type of each name (the operation map of scripts/graphql/operation-map.ts), not document
 * objects compiled into the bundle.
 */
import type { CodegenConfig } from '@graphql-codegen/cli';

const operationMap = './scripts/graphql/operation-map.ts';

const schemaTypes = (schema: string) => ({
  schema,
  plugins: [operationMap, 'typescript'],
  config: { enumsAsTypes: true },
});

const operationTypes = (schema: string, documents: string[], schemaTypesFile: string, mapName: string) => ({
  schema,
  documents,
  plugins: [operationMap, 'typescript-operations'],
  // Enums are their string values; enums and inputs are imported from the schema's types (one declaration each).
  config: { enumType: 'string-literal', importSchemaTypesFrom: schemaTypesFile, operationMap: mapName },
});

const config: CodegenConfig = {
  overwrite: true,
  generates: {
    'src/graphql/generated/schema.ts': schemaTypes('src/graphql/generated/schema.graphql'),
    'src/graphql/generated/operations.ts': operationTypes(
      'src/graphql/generated/schema.graphql',
      ['src/graphql/operations/*.graphql', 'src/graphql/fragments/*.graphql'],
      './src/graphql/generated/schema.ts',
      'Operations',
    ),
    'src/graphql/generated/admin-schema.ts': schemaTypes('src/graphql/generated/admin-schema.graphql'),
    'src/graphql/generated/admin-operations.ts': operationTypes(
      'src/graphql/generated/admin-schema.graphql',
      ['src/server/admin/operations/*.graphql', 'src/server/admin/fragments/*.graphql'],
      './src/graphql/generated/admin-schema.ts',
      'AdminOperations',
    ),
  },
};

export default config;
