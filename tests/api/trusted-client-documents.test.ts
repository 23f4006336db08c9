// Another storefront in production mode (trusted documents on): the operator registers its documents in a
// folder of their own under TRUSTED_CLIENT_DOCUMENTS_DIR; each operation, with the fragments it spreads
// from any file of that folder, then runs as the client sends it. Anything else is still refused, the
// shop's own storefront keeps working, and a file that is not GraphQL stops the engine at start by name.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTrustedDocuments } from '../../src/server/http/trusted-documents.ts';
import { ENGINE_START_TIMEOUT_MS, startTestEngine, type TestEngine } from './harness.ts';
import { operation } from './shop-helpers.ts';

const FRAGMENT = 'fragment ListedProduct on Product {\n  databaseId\n  name\n  slug\n}\n';
const OPERATION =
  'query ClientProducts($first: Int) {\n  products(first: $first) {\n    nodes { ...ListedProduct }\n  }\n}\n';

let dir: string;
let t: TestEngine;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-documents-'));
  fs.mkdirSync(path.join(dir, 'woonuxt', 'fragments'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'woonuxt', 'fragments', 'ListedProduct.gql'), FRAGMENT);
  fs.writeFileSync(path.join(dir, 'woonuxt', 'getProducts.gql'), OPERATION);
  t = await startTestEngine({ env: { TRUSTED_DOCUMENTS_ONLY: 'true', TRUSTED_CLIENT_DOCUMENTS_DIR: dir } });
}, ENGINE_START_TIMEOUT_MS);
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
}, ENGINE_START_TIMEOUT_MS);

describe("a registered client's documents", () => {
  it('run as the client sends them (operation and fragment in one document, any order)', async () => {
    const r = await t.gql(`${FRAGMENT}\n${OPERATION}`, { first: 2 });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.products.nodes).toHaveLength(2);
    expect(r.body.data.products.nodes[0]).toEqual({
      databaseId: expect.any(Number),
      name: expect.any(String),
      slug: expect.any(String),
    });
  });

  it('anything else is still refused; the shop’s own storefront still runs', async () => {
    const other = await t.gql('query ClientProducts { products(first: 2) { nodes { databaseId sku } } }');
    expect(other.status).toBe(400);
    expect(other.body.errors?.[0]?.message).toMatch(/^Invalid GraphQL Operation/);
    const own = await t.gql(operation('getProducts'), { first: 2 });
    expect(own.body.errors).toBeUndefined();
  });

  it('a file that is not GraphQL is named, with the reason', () => {
    const broken = fs.mkdtempSync(path.join(os.tmpdir(), 'client-documents-'));
    try {
      fs.mkdirSync(path.join(broken, 'shop'));
      fs.writeFileSync(path.join(broken, 'shop', 'cart.gql'), 'query Cart { cart { ');
      expect(() =>
        loadTrustedDocuments(path.join(import.meta.dirname, '../../src/graphql/operations'), broken),
      ).toThrow(`${path.join(broken, 'shop', 'cart.gql')}: not a GraphQL document: Syntax Error`);
    } finally {
      fs.rmSync(broken, { recursive: true, force: true });
    }
  });
});
