// `npm run shop -- customers export | erase | log`, run in this process through the entry the CLI process
// uses (tests/fixtures/shop-cli.ts): the export prints the customer's JSON (or writes it to a file only the
// operator can read), the erasure needs --yes and then erases as "Delete my account" does (orders
// anonymised, invoices as issued), and both are in the audit log as cli:<os user>. Usage errors exit 2,
// refusals 1. Runs on PGlite, or on PostgreSQL with DATABASE_URL.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { adminServiceFor } from '../../src/server/admin/service.ts';
import type { Engine } from '../../src/server/engine/index.ts';
import { useShopCommands } from '../fixtures/shop-cli.ts';
import { FIXTURE_CATALOG } from './harness.ts';

vi.setConfig({ testTimeout: 600_000, hookTimeout: 300_000 });

const { shop, withEngine } = useShopCommands({ catalogDir: FIXTURE_CATALOG, from: 'seeded' });

let counter = 0;
/** A customer with one paid (invoiced) order. */
async function customerWithOrder(e: Engine) {
  counter += 1;
  const email = `cli-customer-${Date.now().toString(36)}${counter}@example.test`;
  const customer = await e.accounts.customers.create({
    email,
    username: `cli${Date.now().toString(36)}${counter}`,
    passwordHash: null,
  });
  const snap = await e.catalog.snapshot();
  const product = [...snap.productsById.values()][0]!;
  const address = {
    firstName: 'Grace',
    lastName: 'Hopper',
    company: '',
    address1: '1 Navy Way',
    address2: '',
    city: 'Lyon',
    state: '',
    postcode: '69001',
    country: 'FR',
    email,
    phone: '+33 4 00 00 00 00',
  };
  const order = await e.database.db.transaction(async (tx) => {
    const o = await e.orders.create(
      tx,
      {
        status: 'pending',
        customerId: String(customer.id),
        currency: 'EUR',
        paymentMethod: 'cod',
        paymentMethodTitle: 'Cash on delivery',
        billing: address,
        shipping: address,
        customerNote: 'Ring twice.',
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
          quantity: 1,
          subtotalCents: 1000,
          subtotalTaxCents: 0,
          totalCents: 1000,
          totalTaxCents: 0,
        },
      ],
    );
    return (await e.orders.paymentComplete(tx, snap, o.id, null, 'Paid in a test.')) ?? o;
  });
  const invoice = await e.invoices.invoiceOf(order.id);
  return { customer, order, invoice };
}

const me = () => `cli:${os.userInfo().username}`;

describe('npm run shop -- customers', () => {
  it("exports a customer's data to standard output or to a file only the operator can read, in the audit log", async () => {
    const { customer, order } = await withEngine(customerWithOrder);
    const printed = await shop(['customers', 'export', customer.email.toUpperCase()]);
    expect(printed.code).toBe(0);
    const data = JSON.parse(printed.out);
    expect(data.account).toMatchObject({ id: customer.id, email: customer.email, hasPassword: false });
    expect(data.orders.map((o: { number: string }) => o.number)).toEqual([String(order.id)]);
    expect(printed.err).toBe(`Exported the data of customer ${customer.id}.\n`);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshfront-cli-export-'));
    const file = path.join(dir, 'data.json');
    const written = await shop(['customers', 'export', customer.email, '--out', file]);
    expect(written).toMatchObject({ code: 0, out: `Exported the data of customer ${customer.id} to ${file}.\n` });
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).account.id).toBe(customer.id);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o077).toBe(0);
    fs.rmSync(dir, { recursive: true, force: true });

    const log = await shop(['customers', 'log', customer.email]);
    expect(log.code).toBe(0);
    const lines = log.out.trim().split('\n').slice(1);
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(new RegExp(`${me()}\\s+customer-export\\s+${customer.id}$`));
    expect(log.out).not.toContain(customer.email);
  });

  it('erases a customer only with --yes: orders anonymised, the invoice as issued, an audit entry; then the address names nobody', async () => {
    const { customer, order, invoice } = await withEngine(customerWithOrder);
    const asked = await shop(['customers', 'erase', customer.email]);
    expect(asked.code).toBe(1);
    expect(asked.out).toMatch(
      new RegExp(`^Customer ${customer.id} <${customer.email}>, registered \\d{4}-\\d{2}-\\d{2}, 1 order\\.\\n$`),
    );
    expect(asked.err).toBe(
      'shop customers: Nothing was erased. Run the command again with --yes to erase this customer.\n',
    );
    await withEngine(async (e) => expect(await e.accounts.customers.get(customer.id)).not.toBeNull());

    const done = await shop(['customers', 'erase', customer.email, '--yes']);
    expect(done.err).toBe('');
    expect(done.code).toBe(0);
    expect(done.out).toMatch(
      new RegExp(`^Erased customer ${customer.id}: 1 orders anonymised \\(invoices kept as issued\\)`),
    );

    await withEngine(async (e) => {
      expect(await e.accounts.customers.get(customer.id)).toBeNull();
      const kept = (await e.orders.get(order.id))!;
      expect(kept).toMatchObject({ customerId: '0', customerNote: '' });
      expect(kept.billing).toMatchObject({
        lastName: '[deleted]',
        phone: '',
        email: 'deleted@site.invalid',
        country: 'FR',
      });
      expect((await e.invoices.get(invoice!.id))!.document).toEqual(invoice!.document);
      const { rows } = await adminServiceFor(e).privacy.log(customer.email, { limit: 10, offset: 0 });
      expect(rows.map((r) => [r.actor, r.action, r.customerId])).toEqual([[me(), 'customer-erase', customer.id]]);
      expect(rows[0]!.detail).toMatchObject({ ordersAnonymised: 1 });
      const [mail] = await e.accounts.mailer().readOutbox({ to: customer.email, subject: /account was deleted/ });
      expect(mail?.text).toContain('invoices');
    });

    const again = await shop(['customers', 'erase', customer.email, '--yes']);
    expect(again).toMatchObject({
      code: 1,
      err: 'shop customers: There is no customer account with that e-mail address.\n',
    });
  });

  it('refuses wrong arguments with the usage (exit 2) and what is not an address (exit 1)', async () => {
    const none = await shop(['customers', 'erase']);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/"customers erase" takes one e-mail address\.[\s\S]*customers export EMAIL/);
    const flag = await shop(['customers', 'export', 'a@example.test', '--yes']);
    expect(flag.code).toBe(2);
    expect(flag.err).toMatch(/--yes does not apply to "customers export"/);
    const bad = await shop(['customers', 'export', 'not-an-address']);
    expect(bad).toMatchObject({ code: 1, err: 'shop customers: Enter the e-mail address of a customer account.\n' });
  });
});
