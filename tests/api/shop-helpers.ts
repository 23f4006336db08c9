/**
 * Helpers for the buying tests (cart, coupons, checkout, payments): a shopper that keeps its
 * woocommerce-session token like the storefront does, the storefront's own operation documents, and
 * shortcuts to catalog ids and test coupons.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { couponSchema } from '../../src/server/catalog/seed-format.ts';
import { markStockChanged } from '../../src/server/catalog/stock.ts';
import type { TestEngine, GqlResponse } from './harness.ts';

const OPS = path.resolve(import.meta.dirname, '../../src/graphql/operations');
const FRAGS = path.resolve(import.meta.dirname, '../../src/graphql/fragments');

/** A storefront operation document with the fragments it uses (transitively), exactly as the client sends it. */
export function operation(name: string): string {
  const fragments = new Map(
    fs
      .readdirSync(FRAGS)
      .filter((f) => f.endsWith('.graphql'))
      .map((f) => [f.replace(/\.graphql$/, ''), fs.readFileSync(path.join(FRAGS, f), 'utf8')]),
  );
  const doc = fs.readFileSync(path.join(OPS, `${name}.graphql`), 'utf8');
  const used = new Set<string>();
  const visit = (text: string) => {
    for (const m of text.matchAll(/\.\.\.([A-Za-z_]\w*)/g)) {
      const n = m[1]!;
      if (!used.has(n) && fragments.has(n)) {
        used.add(n);
        visit(fragments.get(n)!);
      }
    }
  };
  visit(doc);
  return [doc, ...[...used].map((n) => fragments.get(n)!)].join('\n');
}

export class Shopper {
  token: string | null = null;
  /** `headers`: sent with every request (e.g. x-forwarded-for, where the engine trusts a proxy). */
  constructor(
    private readonly t: TestEngine,
    readonly headers: Record<string, string> = {},
  ) {}

  async gql<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<GqlResponse<T>> {
    const r = await this.t.gql<T>(query, variables, {
      ...this.headers,
      ...(this.token ? { 'woocommerce-session': `Session ${this.token}` } : {}),
    });
    const issued = r.headers.get('woocommerce-session');
    if (issued) this.token = issued;
    return r;
  }

  /** data of an operation that must succeed. */
  async ok<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const r = await this.gql<T>(query, variables);
    if (r.body.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(r.body.errors)}`);
    return r.body.data as T;
  }

  /** The error message of an operation that must fail. */
  async fails(query: string, variables: Record<string, unknown> = {}): Promise<string> {
    const r = await this.gql(query, variables);
    if (!r.body.errors?.length) throw new Error(`expected an error, got ${JSON.stringify(r.body.data)}`);
    return r.body.errors[0]!.message;
  }
}

export async function productId(t: TestEngine, slug: string): Promise<number> {
  const snap = await t.engine.catalog.snapshot();
  const p = snap.productsBySlug.get(slug);
  if (!p) throw new Error(`no product ${slug}`);
  return p.id;
}

export async function variationId(t: TestEngine, sku: string): Promise<number> {
  const snap = await t.engine.catalog.snapshot();
  const v = [...snap.variationsById.values()].find((x) => x.sku === sku);
  if (!v) throw new Error(`no variation ${sku}`);
  return v.id;
}

export async function addCoupons(t: TestEngine, list: Record<string, unknown>[]): Promise<void> {
  await t.engine.coupons.upsert(list.map((c) => couponSchema.parse(c)));
}

/** Test arrangement: set a product's stock directly (the admin API is another issue). */
export async function setStock(
  t: TestEngine,
  slug: string,
  quantity: number,
  backorders: 'no' | 'notify' | 'yes' = 'no',
): Promise<void> {
  await t.engine.database.db.transaction(async (tx) => {
    const r = await tx.execute(
      sql`update catalog_products set manage_stock = true, stock_quantity = ${quantity}, backorders = ${backorders} where slug = ${slug} returning id`,
    );
    const rows = (r as unknown as { rows?: { id: number }[] }).rows ?? (r as unknown as { id: number }[]);
    // Announced as the shop's own stock changes are, so every snapshot refreshes this product.
    await markStockChanged(tx, { productIds: rows.map((row) => row.id) });
  });
  t.engine.catalog.invalidate();
}

export async function stockOf(t: TestEngine, slug: string): Promise<number | null> {
  const r = await t.engine.database.db.execute(sql`select stock_quantity from catalog_products where slug = ${slug}`);
  return ((r as unknown as { rows: { stock_quantity: number | null }[] }).rows ??
    (r as unknown as { stock_quantity: number | null }[]))[0]!.stock_quantity;
}

export const CART = `
query cart { cart { isEmpty total rawTotal: total(format: RAW) subtotal rawSubtotal: subtotal(format: RAW) totalTax rawTotalTax: totalTax(format: RAW)
  discountTotal rawDiscountTotal: discountTotal(format: RAW) shippingTotal rawShippingTotal: shippingTotal(format: RAW) rawShippingTax: shippingTax(format: RAW)
  needsShippingAddress chosenShippingMethods
  availableShippingMethods { packageDetails rates { id methodId instanceId label cost rawCost: cost(format: RAW) } }
  appliedCoupons { code description discountAmount rawDiscount: discountAmount(format: RAW) rawDiscountTax: discountTax(format: RAW) }
  contents(first: 100) { itemCount productCount nodes { key quantity rawSubtotal: subtotal(format: RAW) rawTotal: total(format: RAW) rawTax: tax(format: RAW) product { node { databaseId slug } } variation { node { databaseId } attributes { name value } } } } } }`;

export const BILLING = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  address1: 'Hauptstr. 1',
  city: 'Berlin',
  postcode: '10115',
  country: 'DE',
  email: 'ada@example.com',
  phone: '+49 30 123456',
};
