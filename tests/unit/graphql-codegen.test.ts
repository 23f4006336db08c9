// The GraphQL check of `npm test -- rules` (scripts/graphql/codegen.ts --check): every operation document,
// with the fragments it spreads, must be valid against the schema the engine's own code builds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { documentProblems, ENGINE_APIS, schemaSdl } from '../../scripts/graphql/schemas.ts';

const api = (name: string) => ENGINE_APIS.find((a) => a.name === name)!;
const storefront = api('storefront').schema();

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'meshfront-graphql-check-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** A folder of operation files and one of fragment files, as src/graphql has them. */
function documents(operations: Record<string, string>, fragments: Record<string, string> = {}) {
  const root = fs.mkdtempSync(path.join(scratch, 'docs-'));
  const write = (dir: string, files: Record<string, string>) => {
    fs.mkdirSync(path.join(root, dir));
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(root, dir, `${name}.graphql`), text);
  };
  write('operations', operations);
  write('fragments', fragments);
  return [path.join(root, 'operations'), path.join(root, 'fragments')] as const;
}

describe('the GraphQL documents check', () => {
  it("passes the storefront's and the admin UI's documents as they are", () => {
    for (const { name, schema, operationsDir, fragmentsDir } of ENGINE_APIS) {
      expect({ name, problems: documentProblems(schema(), operationsDir, fragmentsDir) }).toEqual({
        name,
        problems: [],
      });
    }
  });

  it('fails a document that asks for a field the schema does not have, naming the file and the field', () => {
    const [operations, fragments] = documents({
      getStock: 'query getStock($slug: ID!) { product(id: $slug, idType: SLUG) { databaseId stockLevel } }',
    });
    const problems = documentProblems(storefront, operations, fragments);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('getStock.graphql (getStock)');
    expect(problems[0]).toContain('Cannot query field "stockLevel" on type "Product".');
  });

  it('fails a field that only a fragment the operation spreads asks for', () => {
    const [operations, fragments] = documents(
      { getCard: 'query getCard($slug: ID!) { product(id: $slug, idType: SLUG) { ...Card } }' },
      { Card: 'fragment Card on Product { databaseId name subtitle }' },
    );
    expect(documentProblems(storefront, operations, fragments)).toEqual([
      expect.stringContaining('Cannot query field "subtitle" on type "Product".'),
    ]);
  });

  it('fails a variable of the wrong type and a fragment that does not exist', () => {
    const [operations, fragments] = documents({
      getProduct: 'query getProduct($slug: Int!) { product(id: $slug, idType: SLUG) { ...Missing } }',
    });
    const problems = documentProblems(storefront, operations, fragments).join('\n');
    expect(problems).toContain('Variable "$slug" of type "Int!" used in position expecting type "ID!".');
    expect(problems).toContain('Unknown fragment "Missing".');
  });

  it('fails a folder without operations (a moved folder must not pass as "nothing to check")', () => {
    const [operations, fragments] = documents({});
    expect(documentProblems(storefront, operations, fragments)).toEqual([`${operations}: no operations found`]);
  });
});

describe('the schema files', () => {
  it("are the SDL of the schemas the engine's code builds now (npm run codegen writes them)", () => {
    for (const { sdlFile, schema } of ENGINE_APIS) {
      expect(fs.readFileSync(sdlFile, 'utf8')).toBe(schemaSdl(schema()));
    }
    expect(schemaSdl(storefront)).toContain('enum TaxonomyEnum {');
  });
});
