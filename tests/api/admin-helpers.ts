/**
 * Helpers of the store-operations tests: an engine with both endpoints (the storefront's /graphql and the
 * admin's /api/admin/graphql), the admin UI's own operation documents (src/server/admin/operations), a
 * shop manager, a customer and a guest to call them as, and arrangement shortcuts (orders, messages).
 */
import path from 'node:path';
import { print } from 'graphql';
import { adminServiceFor, type AdminService } from '../../src/server/admin/service.ts';
import { createAdminYoga, type AdminYoga } from '../../src/server/admin/yoga.ts';
import { composeOperations } from '../../src/server/http/trusted-documents.ts';
import { newCustomer, register } from './accounts-helpers.ts';
import { startTestEngine, type GqlResponse, type TestEngine } from './harness.ts';

export const ADMIN_OPERATIONS_DIR = path.resolve(import.meta.dirname, '../../src/server/admin/operations');
const ADMIN_FRAGMENTS_DIR = path.resolve(import.meta.dirname, '../../src/server/admin/fragments');
export const adminDocuments = new Map(
  composeOperations(ADMIN_OPERATIONS_DIR, ADMIN_FRAGMENTS_DIR).map((o) => [o.name, print(o.document)]),
);

/** The admin UI's operation `name`, exactly as it is stored (with its fragments). */
export function adminOp(name: string): string {
  const q = adminDocuments.get(name);
  if (!q) throw new Error(`no admin operation ${name}`);
  return q;
}

export type AdminTestEngine = TestEngine & {
  adminYoga: AdminYoga;
  admin: AdminService;
  /** POST to /api/admin/graphql with an optional auth token. */
  adminGql<T = any>(query: string, variables?: Record<string, unknown>, token?: string | null): Promise<GqlResponse<T>>;
  /** A shop manager's auth token (made through the same registration and role change as the CLI). */
  managerToken: string;
  /** A registered customer's auth token. */
  customerToken: string;
  customerId: number;
  /** data of an admin operation (by name) as the shop manager; throws on errors. */
  ok<T = any>(name: string, variables?: Record<string, unknown>): Promise<T>;
  /** The first error of an admin operation (by name) as the shop manager. */
  fails(name: string, variables?: Record<string, unknown>): Promise<{ message: string; code: unknown }>;
};

export async function startAdminEngine(
  options: { env?: Record<string, string>; trustedAdminDocuments?: boolean; catalogDir?: string } = {},
): Promise<AdminTestEngine> {
  const t = await startTestEngine({ env: options.env, catalogDir: options.catalogDir });
  const adminYoga = createAdminYoga(
    async () => t.engine,
    { ...t.config, trustedDocumentsOnly: options.trustedAdminDocuments ?? t.config.trustedDocumentsOnly },
    { operationsDir: ADMIN_OPERATIONS_DIR },
  );
  const admin = adminServiceFor(t.engine);
  const adminGql = async <T>(
    query: string,
    variables: Record<string, unknown> = {},
    token?: string | null,
  ): Promise<GqlResponse<T>> => {
    const r = await adminYoga.fetch('http://meshfront.test/api/admin/graphql', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({ query, variables }),
    });
    const text = await r.text();
    try {
      return { status: r.status, headers: r.headers, body: JSON.parse(text) };
    } catch {
      throw new Error(`Non-JSON response ${r.status}: ${text.slice(0, 500)}`);
    }
  };
  const manager = await register(t, newCustomer('manager'), { 'x-forwarded-for': '198.51.100.1' });
  await admin.roles.setRole(manager.userId, 'shop_manager');
  const customer = await register(t, newCustomer('shopper'), { 'x-forwarded-for': '198.51.100.2' });
  const out: AdminTestEngine = {
    ...t,
    adminYoga,
    admin,
    adminGql,
    managerToken: manager.authToken,
    customerToken: customer.authToken,
    customerId: customer.userId,
    async ok(name, variables = {}) {
      const r = await adminGql(adminOp(name), variables, manager.authToken);
      if (r.body.errors?.length) throw new Error(`${name}: ${JSON.stringify(r.body.errors)}`);
      return r.body.data as never;
    },
    async fails(name, variables = {}) {
      const r = await adminGql(adminOp(name), variables, manager.authToken);
      if (!r.body.errors?.length) throw new Error(`${name}: expected an error, got ${JSON.stringify(r.body.data)}`);
      return { message: r.body.errors[0]!.message, code: r.body.errors[0]!.extensions?.code };
    },
  };
  return out;
}

const ADDRESS = {
  firstName: 'Grace',
  lastName: 'Hopper',
  company: '',
  address1: '1 Harbour Rd',
  address2: '',
  city: 'Lisbon',
  state: '',
  postcode: '1000-001',
  country: 'PT',
  email: 'grace@example.test',
  phone: '',
};

/**
 * An order placed through the order service with stock taken like checkout takes it (so cancelling has
 * stock to give back). Lines: [productId, quantity, unit cents].
 */
export async function placePaidOrder(
  t: TestEngine,
  o: {
    lines: [number, number, number][];
    customerId?: string;
    email?: string;
    paymentMethod?: string;
    status?: 'pending' | 'processing';
    date?: Date;
  },
) {
  const { takeStock } = await import('../../src/server/catalog/stock.ts');
  const snap = await t.engine.catalog.snapshot();
  const total = o.lines.reduce((s, [, q, c]) => s + q * c, 0);
  const billing = { ...ADDRESS, email: o.email ?? ADDRESS.email };
  const order = await t.engine.database.db.transaction(async (tx) => {
    const taken = await takeStock(
      tx,
      o.lines.map(([productId, quantity]) => ({
        productId,
        variationId: null,
        quantity,
        name: snap.productsById.get(productId)!.name,
      })),
    );
    const row = await t.engine.orders.create(
      tx,
      {
        status: 'pending',
        customerId: o.customerId ?? 't_guest_admin_test',
        currency: 'EUR',
        paymentMethod: o.paymentMethod ?? 'cod',
        paymentMethodTitle: o.paymentMethod === 'bacs' ? 'Bank transfer' : 'Cash on delivery',
        billing,
        shipping: billing,
        subtotalCents: total,
        discountCents: 0,
        discountTaxCents: 0,
        shippingCents: 0,
        shippingTaxCents: 0,
        cartTaxCents: 0,
        totalTaxCents: 0,
        totalCents: total,
        stockReduced: true,
        ...(o.date ? { dateCreated: o.date } : {}),
      },
      o.lines.map(([productId, quantity, cents], i) => {
        const p = snap.productsById.get(productId)!;
        return {
          productId,
          name: p.name,
          sku: p.sku,
          quantity,
          subtotalCents: quantity * cents,
          subtotalTaxCents: 0,
          totalCents: quantity * cents,
          totalTaxCents: 0,
          virtual: p.virtual,
          downloadable: p.downloadable,
          stockReduced: taken[i]!.reduced,
        };
      }),
    );
    if (o.status === 'pending') return row;
    return (await t.engine.orders.paymentComplete(tx, snap, row.id, null, 'Paid in a test.')) ?? row;
  });
  t.engine.catalog.invalidate();
  return order;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
