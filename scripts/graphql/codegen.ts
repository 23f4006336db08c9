/**
 * `npm run codegen`: src/graphql/generated/ from the engine's own code. Prints the storefront's and the
 * admin's schema (scripts/graphql/schemas.ts) to their .graphql files, checks every operation document
 * against its schema, then runs GraphQL Code Generator (codegen.ts) and writes the files that changed.
 *
 * `--check` (`npm test -- rules`) writes nothing and fails when a document and its schema disagree, or
 * when a generated file is not what the schema and documents make now (someone changed a schema or a
 * document and did not run `npm run codegen`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { generate } from '@graphql-codegen/cli';
import config from '../../codegen.ts';
import { documentProblems, ENGINE_APIS, schemaSdl } from './schemas.ts';

const root = path.resolve(import.meta.dirname, '../..');
const check = process.argv.includes('--check');

function fail(lines: string[]): never {
  console.error(lines.join('\n'));
  process.exit(1);
}

/** relative path → content, in the order they are written */
const files = new Map<string, string>();
const problems: string[] = [];
for (const api of ENGINE_APIS) {
  const schema = api.schema();
  files.set(api.sdlFile, schemaSdl(schema));
  problems.push(...documentProblems(schema, api.operationsDir, api.fragmentsDir));
}
if (problems.length) {
  fail([`GraphQL documents that do not match the engine's schema:`, ...problems.map((p) => `  ${p}`)]);
}

// Code Generator reads each schema as just printed, not from the file, so `--check` compares the
// generated files with what the engine's code says now even when the .graphql file is stale too.
const generates = Object.fromEntries(
  Object.entries(config.generates).map(([output, options]) => {
    const schema = typeof options === 'object' && 'schema' in options ? options.schema : undefined;
    const sdl = typeof schema === 'string' ? files.get(schema) : undefined;
    return [output, sdl === undefined ? options : { ...options, schema: sdl }];
  }),
);
let outputs: { filename: string; content: string }[];
try {
  outputs = await generate({ ...config, generates, cwd: root, silent: true }, false);
} catch (error) {
  fail([`GraphQL Code Generator failed: ${error instanceof Error ? error.message : String(error)}`]);
}
for (const { filename, content } of outputs) files.set(path.relative(root, path.resolve(root, filename)), content);

const stale = [...files].filter(([file, content]) => {
  const target = path.join(root, file);
  return !fs.existsSync(target) || fs.readFileSync(target, 'utf8') !== content;
});
if (check) {
  if (stale.length) {
    fail([
      'Generated GraphQL files are stale (run `npm run codegen` and commit the result):',
      ...stale.map(([file]) => `  ${file}`),
    ]);
  }
  console.log(`GraphQL documents match the schemas; ${files.size} generated files are up to date.`);
} else {
  for (const [file, content] of stale) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), content);
    console.log(`wrote ${file}`);
  }
  if (!stale.length) console.log(`${files.size} generated files were already up to date.`);
}
