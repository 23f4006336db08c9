// Who may run store operations: every admin operation refuses a guest (UNAUTHENTICATED) and a customer
// (FORBIDDEN, "You do not have permission to do that.") without changing anything; a shop manager is
// let in. The admin schema is separate from the storefront's: /graphql has no admin field, and with
// trusted documents each endpoint runs only its own documents.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMeshfrontYoga } from '../../src/server/http/yoga.ts';
import { composeOperations } from '../../src/server/http/trusted-documents.ts';
import { adminDocuments, adminOp, startAdminEngine, type AdminTestEngine } from './admin-helpers.ts';
import { productId, stockOf } from './shop-helpers.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

let t: AdminTestEngine;
beforeAll(async () => {
  t = await startAdminEngine({ trustedAdminDocuments: true });
});
afterAll(async () => {
  await t?.close();
});

/** Variables that pass validation for each admin operation (what they point at does not matter: nobody gets that far). */
function variablesFor(name: string, ids: { product: number }): Record<string, unknown> {
  const common: Record<string, unknown> = {
    id: ids.product,
    productId: ids.product,
    orderId: 1001,
    note: 'x',
    downloadId: 'abc',
    answered: true,
    kind: 'CONTACT_MESSAGES',
    email: 'someone@example.test',
    confirmEmail: 'someone@example.test',
  };
  // `status` is a different enum in each operation.
  const status: Record<string, unknown> = {
    adminModerateReview: 'APPROVED',
    adminReviews: 'PENDING',
    adminProducts: 'DRAFT',
    adminOrders: ['PROCESSING'],
    adminNewsletterSubscribers: 'CONFIRMED',
    adminExportCsv: 'CONFIRMED',
  };
  const inputs: Record<string, unknown> = {
    adminCreateProduct: { name: 'Intruder', regularPriceCents: 100 },
    adminUpdateProduct: { regularPriceCents: 1 },
    adminSetStock: { stockQuantity: 0 },
    adminSetPrice: { regularPriceCents: 1 },
    adminCreateVariation: { sku: 'X-1', regularPriceCents: 1 },
    adminUpdateVariation: { regularPriceCents: 1 },
    adminUploadImage: { fileName: 'x.png', contentBase64: 'iVBORw0KGgo=' },
    adminAddProductDownload: { productId: ids.product, name: 'x', fileName: 'mesh-os-1.0.zip' },
    adminCreateCategory: { name: 'Intruders' },
    adminUpdateCategory: { name: 'Intruders' },
    adminUpdateOrderStatus: { orderId: 1001, status: 'CANCELLED' },
    adminRefundOrder: { orderId: 1001, idempotencyKey: 'intruder-key-1' },
    adminCreateCoupon: { code: 'intruder', amountCents: 100 },
    adminUpdateCoupon: { amountCents: 100 },
  };
  return {
    ...common,
    ...(name in status ? { status: status[name] } : {}),
    ...(inputs[name] ? { input: inputs[name] } : {}),
  };
}

describe('authorisation', () => {
  it('has an admin document for every operation the UI needs', () => {
    expect([...adminDocuments.keys()].sort()).toEqual(
      [
        'adminAddOrderNote',
        'adminAddProductDownload',
        'adminArchiveProduct',
        'adminCategories',
        'adminContactMessages',
        'adminCoupon',
        'adminCoupons',
        'adminCreateCategory',
        'adminCreateCoupon',
        'adminCreateProduct',
        'adminCreateVariation',
        'adminCustomer',
        'adminDashboard',
        'adminDeleteCategory',
        'adminDeleteVariation',
        'adminEraseCustomer',
        'adminExpireCoupon',
        'adminExportCsv',
        'adminExportCustomerData',
        'adminFailedMails',
        'adminModerateReview',
        'adminNewsletterSubscribers',
        'adminOrder',
        'adminOrders',
        'adminPrivacyLog',
        'adminProduct',
        'adminProducts',
        'adminPublish',
        'adminPublishStatus',
        'adminRefundOrder',
        'adminRemoveProductDownload',
        'adminRetryFailedMails',
        'adminRetryMail',
        'adminReviews',
        'adminSetMessageAnswered',
        'adminSetPrice',
        'adminSetStock',
        'adminUpdateCategory',
        'adminUpdateCoupon',
        'adminUpdateOrderStatus',
        'adminUpdateProduct',
        'adminUpdateVariation',
        'adminUploadImage',
        'adminViewer',
      ].sort(),
    );
  });

  it('refuses a guest and a customer on every admin operation, with a stable code and message', async () => {
    const ids = { product: await productId(t, 'bravo-outdoor-gateway') };
    const names = [...adminDocuments.keys()].filter((n) => n !== 'adminViewer');
    for (const name of names) {
      const vars = variablesFor(name, ids);
      const guest = await t.adminGql(adminOp(name), vars, null);
      expect(guest.body.errors?.[0], `${name} as a guest`).toMatchObject({
        message: 'You must be logged in as a shop manager to do that.',
        extensions: { code: 'UNAUTHENTICATED' },
      });
      const customer = await t.adminGql(adminOp(name), vars, t.customerToken);
      expect(customer.body.errors?.[0], `${name} as a customer`).toMatchObject({
        message: 'You do not have permission to do that.',
        extensions: { code: 'FORBIDDEN' },
      });
      // Nothing comes back: the root field is null (nullable fields) or the whole data is (non-null ones).
      expect(
        Object.values(customer.body.data ?? {}).every((v) => v === null),
        name,
      ).toBe(true);
    }
  });

  it('a refused customer changes nothing: stock, coupons and categories stay as they were', async () => {
    const before = await stockOf(t, 'bravo-outdoor-gateway');
    const id = await productId(t, 'bravo-outdoor-gateway');
    await t.adminGql(
      adminOp('adminSetStock'),
      { id, input: { manageStock: true, stockQuantity: 999 } },
      t.customerToken,
    );
    await t.adminGql(
      adminOp('adminCreateCoupon'),
      { input: { code: 'customer-made', discountType: 'PERCENT', amountCents: 10000 } },
      t.customerToken,
    );
    expect(await stockOf(t, 'bravo-outdoor-gateway')).toBe(before);
    expect(await t.admin.coupons.getByCode('customer-made')).toBeNull();
  });

  it('an expired or forged token is refused with the token error', async () => {
    const r = await t.adminGql(adminOp('adminDashboard'), {}, 'not.a.token');
    expect(r.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(r.body.data ?? null).toBeNull();
  });

  it('tells the UI who is asking: null for a guest, the role for a login', async () => {
    expect((await t.adminGql(adminOp('adminViewer'), {}, null)).body.data.adminViewer).toBeNull();
    expect((await t.adminGql(adminOp('adminViewer'), {}, t.customerToken)).body.data.adminViewer).toMatchObject({
      role: 'customer',
    });
    expect((await t.ok('adminViewer')).adminViewer).toMatchObject({ role: 'shop_manager' });
  });

  it('no cache keeps an admin answer: private, no-store, varying by the login', async () => {
    for (const token of [null, t.managerToken]) {
      const r = await t.adminGql(adminOp('adminDashboard'), {}, token);
      expect(r.headers.get('cache-control')).toBe('private, no-store');
      expect(r.headers.get('vary')).toMatch(/Authorization/i);
    }
  });

  it('lets a shop manager in, and a demoted one out at the next request', async () => {
    const d = (await t.ok('adminDashboard')).adminDashboard;
    expect(d.ordersByStatus.map((s: any) => s.status)).toEqual([
      'PENDING',
      'PROCESSING',
      'ON_HOLD',
      'COMPLETED',
      'CANCELLED',
      'REFUNDED',
      'FAILED',
    ]);
    const managerId = (await t.ok('adminViewer')).adminViewer.id;
    await t.admin.roles.setRole(managerId, 'customer');
    try {
      const r = await t.adminGql(adminOp('adminDashboard'), {}, t.managerToken);
      expect(r.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    } finally {
      await t.admin.roles.setRole(managerId, 'shop_manager');
    }
  });
});

describe('separate from the storefront', () => {
  it('the storefront endpoint has no admin fields', async () => {
    const r = await t.gql(
      'query { adminDashboard { ordersToday } }',
      {},
      { authorization: `Bearer ${t.managerToken}` },
    );
    expect(r.body.errors?.[0]?.message).toMatch(/Cannot query field "adminDashboard"/);
  });

  it('no admin document is in the storefront’s trusted list', () => {
    const storefront = composeOperations('src/graphql/operations').map((o) => o.name);
    expect(storefront.length).toBeGreaterThan(20);
    for (const name of adminDocuments.keys()) expect(storefront).not.toContain(name);
  });

  it('with trusted documents, the admin endpoint runs its own documents only', async () => {
    const adHoc = await t.adminGql('query { adminDashboard { ordersToday revenueTodayCents } }', {}, t.managerToken);
    expect(adHoc.status).toBe(400);
    expect(adHoc.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_ALLOWED');
    const storefrontDoc = await t.adminGql('query getAllowedCountries { allowedCountries }', {}, t.managerToken);
    expect(storefrontDoc.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_ALLOWED');
    expect((await t.ok('adminDashboard')).adminDashboard.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('with trusted documents, the storefront endpoint refuses admin documents', async () => {
    const strict = createMeshfrontYoga(async () => t.engine, { ...t.config, trustedDocumentsOnly: true });
    const r = await strict.fetch('http://meshfront.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.managerToken}` },
      body: JSON.stringify({ query: adminOp('adminDashboard') }),
    });
    const body = await r.json();
    expect(body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_ALLOWED');
  });
});
