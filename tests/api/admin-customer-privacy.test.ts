// Customers' privacy requests from the operator's side (/api/admin/graphql, what /admin/customers calls):
// find a customer by e-mail, export their data (the same JSON as their own download) and erase them (the
// same erasure as their own "Delete my account"), each written to the audit log with who did it and a
// reference to the customer that is not the address. Only shop managers; a wrong confirmation erases
// nothing; a shop manager is not erased. Runs on PGlite, or on PostgreSQL with TEST_DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { newCustomer, placeOrder, register } from './accounts-helpers.ts';
import { adminOp, startAdminEngine, type AdminTestEngine } from './admin-helpers.ts';
import { ENGINE_START_TIMEOUT_MS } from './harness.ts';
import { productId } from './shop-helpers.ts';

let t: AdminTestEngine;
beforeAll(async () => {
  t = await startAdminEngine();
}, ENGINE_START_TIMEOUT_MS);
afterAll(() => t?.close());

const manager = async () => (await t.ok('adminViewer')).adminViewer as { id: number; email: string };

describe('customer privacy requests in the admin', () => {
  it('finds a customer by e-mail, exports their data and erases them; both go into the audit log without the address', async () => {
    const ada = await register(t, newCustomer('ada'));
    const bob = await register(t, newCustomer('bob'));
    const antenna = await productId(t, 'omni-antenna');
    const order = await placeOrder(t, { customerId: String(ada.userId), productId: antenna, status: 'processing' });
    const invoice = (await t.engine.invoices.invoiceOf(order.id))!;

    const found = await t.ok('adminCustomer', { email: ada.email.toUpperCase() });
    expect(found.adminCustomer).toMatchObject({ id: ada.userId, email: ada.email, orderCount: 1, hasPassword: true });
    expect((await t.ok('adminCustomer', { email: 'nobody@example.test' })).adminCustomer).toBeNull();
    expect((await t.fails('adminCustomer', { email: 'not an address' })).code).toBe('BAD_USER_INPUT');

    const exported = (await t.ok('adminExportCustomerData', { email: ada.email })).adminExportCustomerData;
    expect(exported.contentType).toBe('application/json; charset=utf-8');
    const data = JSON.parse(exported.json);
    expect(data.account).toMatchObject({ id: ada.userId, email: ada.email });
    expect(data.orders.map((o: { number: string }) => o.number)).toEqual([String(order.id)]);
    expect(exported.json).not.toContain(bob.email);

    // A confirmation that is not the address erases nothing.
    const slip = await t.fails('adminEraseCustomer', { email: ada.email, confirmEmail: bob.email });
    expect(slip.code).toBe('BAD_USER_INPUT');
    expect(await t.engine.accounts.customers.get(ada.userId)).not.toBeNull();

    const erased = (
      await t.ok('adminEraseCustomer', { email: ada.email, confirmEmail: ` ${ada.email.toUpperCase()} ` })
    ).adminEraseCustomer;
    expect(erased).toMatchObject({ customerId: ada.userId, ordersAnonymised: 1 });
    expect(await t.engine.accounts.customers.get(ada.userId)).toBeNull();
    const kept = (await t.engine.orders.get(order.id))!;
    expect(kept.customerId).toBe('0');
    expect(kept.billing.email).toBe('deleted@site.invalid');
    expect((await t.engine.invoices.get(invoice.id))!.document).toEqual(invoice.document);
    expect(await t.engine.accounts.customers.get(bob.userId)).not.toBeNull();
    expect(await t.engine.accounts.mailer().readOutbox({ to: ada.email, subject: /account was deleted/ })).toHaveLength(
      1,
    );

    // The audit log: who, what, which customer (id and reference), when; the address nowhere in it.
    const log = (await t.ok('adminPrivacyLog', { email: ada.email })).adminPrivacyLog;
    expect(log.total).toBe(2);
    const actor = `user:${(await manager()).id}`;
    expect(
      log.nodes.map((e: { action: string; actor: string; customerId: number }) => [e.action, e.actor, e.customerId]),
    ).toEqual([
      ['CUSTOMER_ERASE', actor, ada.userId],
      ['CUSTOMER_EXPORT', actor, ada.userId],
    ]);
    expect(log.nodes[0].customerRef).toBe(log.nodes[1].customerRef);
    expect(Date.now() - Date.parse(log.nodes[0].at)).toBeLessThan(120_000);
    expect((await t.ok('adminPrivacyLog', { email: bob.email })).adminPrivacyLog.total).toBe(0);
    const rows = await t.engine.database.db.execute(sql`select * from audit_log`);
    const stored = JSON.stringify((rows as { rows: unknown[] }).rows);
    expect(stored).not.toContain(ada.email);
    expect(stored).not.toContain(ada.email.split('@')[0]!);
    expect(stored).toContain('"ordersAnonymised":1');

    // Erased once: the address names no account any more.
    expect((await t.fails('adminEraseCustomer', { email: ada.email, confirmEmail: ada.email })).code).toBe('NOT_FOUND');
  });

  it('only shop managers may, and a shop manager is not erased', async () => {
    const c = await register(t, newCustomer('carol'));
    for (const token of [t.customerToken, null]) {
      const r = await t.adminGql(adminOp('adminEraseCustomer'), { email: c.email, confirmEmail: c.email }, token);
      expect(['FORBIDDEN', 'UNAUTHENTICATED']).toContain(r.body.errors?.[0]?.extensions?.code);
      const x = await t.adminGql(adminOp('adminExportCustomerData'), { email: c.email }, token);
      expect(['FORBIDDEN', 'UNAUTHENTICATED']).toContain(x.body.errors?.[0]?.extensions?.code);
    }
    expect(await t.engine.accounts.customers.get(c.userId)).not.toBeNull();
    expect((await t.ok('adminPrivacyLog', { email: c.email })).adminPrivacyLog.total).toBe(0);

    const me = await manager();
    const refused = await t.fails('adminEraseCustomer', { email: me.email, confirmEmail: me.email });
    expect(refused.code).toBe('FORBIDDEN');
    expect(await t.engine.accounts.customers.get(me.id)).not.toBeNull();
  });
});
