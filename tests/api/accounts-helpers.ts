/** Helpers shared by the account API tests: the storefront's own documents and a logged-in client. */
import path from 'node:path';
import { print } from 'graphql';
import { composeOperations } from '../../src/server/http/trusted-documents.ts';
import type { TestEngine } from './harness.ts';

const OPERATIONS_DIR = path.resolve(import.meta.dirname, '../../src/graphql/operations');
const ops = new Map(composeOperations(OPERATIONS_DIR).map((o) => [o.name, print(o.document)]));

/** The storefront's operation document `name` (with its fragments), exactly as the storefront sends it. */
export function op(name: string): string {
  const q = ops.get(name);
  if (!q) throw new Error(`no storefront operation ${name}`);
  return q;
}

export function headersOf(c: { authToken?: string; sessionToken?: string }, ip?: string): Record<string, string> {
  const h: Record<string, string> = {};
  if (c.authToken) h.authorization = `Bearer ${c.authToken}`;
  if (c.sessionToken) h['woocommerce-session'] = `Session ${c.sessionToken}`;
  if (ip) h['x-forwarded-for'] = ip;
  return h;
}

let counter = 0;
/** A unique test customer's details. */
export function newCustomer(prefix = 'user') {
  counter += 1;
  const n = `${prefix}${Date.now().toString(36)}${counter}`;
  return {
    username: n,
    email: `${n}@example.test`,
    password: `Str0ng-${n}-pass`,
    firstName: 'Ada',
    lastName: 'Lovelace',
  };
}

export async function register(t: TestEngine, c = newCustomer(), headers: Record<string, string> = {}) {
  const r = await t.gql(op('registerCustomer'), c, headers);
  if (r.body.errors) throw new Error(JSON.stringify(r.body.errors));
  const p = r.body.data.registerCustomer;
  return {
    ...c,
    authToken: p.authToken as string,
    refreshToken: p.refreshToken as string,
    sessionToken: p.customer.sessionToken as string,
    userId: p.viewer.databaseId as number,
    payload: p,
  };
}

export async function login(t: TestEngine, username: string, password: string, headers: Record<string, string> = {}) {
  return t.gql(op('login'), { username, password }, headers);
}

/**
 * Places an order for `customerId` straight through the order service (the checkout's own path is tested
 * by the checkout tests): one line of `productId`; with status processing/completed the download
 * permissions are granted as on payment.
 */
export async function placeOrder(
  t: TestEngine,
  o: { customerId: string; productId: number; quantity?: number; status?: 'pending' | 'processing' | 'completed' },
) {
  const snap = await t.engine.catalog.snapshot();
  const product = snap.productsById.get(o.productId)!;
  const address = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    company: '',
    address1: '1 Main St',
    address2: '',
    city: 'Paris',
    state: '',
    postcode: '75001',
    country: 'FR',
    email: 'ada@example.test',
    phone: '',
  };
  return t.engine.database.db.transaction(async (tx) => {
    const order = await t.engine.orders.create(
      tx,
      {
        status: 'pending',
        customerId: o.customerId,
        currency: 'EUR',
        paymentMethod: 'cod',
        paymentMethodTitle: 'Cash on delivery',
        billing: address,
        shipping: address,
        subtotalCents: 1000,
        discountCents: 0,
        discountTaxCents: 0,
        shippingCents: 0,
        shippingTaxCents: 0,
        cartTaxCents: 0,
        totalTaxCents: 0,
        totalCents: 1000,
      },
      [
        {
          productId: product.id,
          name: product.name,
          quantity: o.quantity ?? 1,
          subtotalCents: 1000,
          subtotalTaxCents: 0,
          totalCents: 1000,
          totalTaxCents: 0,
          virtual: product.virtual,
          downloadable: product.downloadable,
        },
      ],
    );
    if (o.status && o.status !== 'pending')
      return (await t.engine.orders.paymentComplete(tx, snap, order.id, null, 'Paid in a test.')) ?? order;
    return order;
  });
}
