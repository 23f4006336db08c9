// Store operations from the shell (`npm run shop -- …`), run in this process through the same entry the
// CLI process uses (src/server/admin/cli/shell.ts); the first test also spawns it with tsx as npm does:
// create-admin (new, duplicate, promote), products set-price / set-stock, coupons create / expire, orders
// list / complete (customer e-mail) / cancel (stock back) / refund (a repeat refunds nothing more). Usage errors exit 2 with the usage text, failures exit 1 with the reason.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { Engine } from '../../src/server/engine/index.ts';
import { readOutbox } from '../../src/server/mail/index.ts';
import { readMailSettings } from '../../src/server/mail/settings.ts';
import { useShopCommands } from '../fixtures/shop-cli.ts';
import { OrderOperator } from '../../src/server/orders/operator.ts';
import { placePaidOrder } from './admin-helpers.ts';
import { FIXTURE_CATALOG, type TestEngine } from './harness.ts';

vi.setConfig({ testTimeout: 600_000, hookTimeout: 300_000 });

const { env, shop, withEngine, databaseKind } = useShopCommands({ catalogDir: FIXTURE_CATALOG });

/** `npm run shop -- …` in its own process, as npm runs it (tsx: seconds on a busy machine, so used once). */
function shopProcess(args: string[], input?: string) {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.resolve(import.meta.dirname, '../../src/server/cli.ts'), ...args],
    {
      encoding: 'utf8',
      input,
      env: { ...process.env, ...env, MESHFRONT_LOG_ERRORS: '0' },
    },
  );
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const stockOf = (e: Engine, sku: string) =>
  e.catalog.snapshot().then((s) => s.productsBySku.get(sku.toLowerCase())!.stockQuantity);

describe('npm run shop', () => {
  it('creates a shop manager who can log in, refuses a duplicate with the way to promote, promotes an account', async () => {
    await withEngine(async (e) => {
      await e.catalog.seedFromDirectory(FIXTURE_CATALOG);
      await e.accounts.customers.create({ email: 'clerk@example.test', username: 'clerk', passwordHash: null });
    });
    const created = shopProcess(
      ['create-admin', '--username', 'opsboss', '--email', 'ops@example.test', '--password-stdin'],
      'Correct-Horse-Battery-9\n',
    );
    expect(created.err).toBe('');
    expect(created.code).toBe(0);
    expect(created.out).toMatch(/^Created shop manager opsboss <ops@example.test> \(user \d+\)\.\n$/);
    const again = await shop(
      ['create-admin', '--username', 'opsboss', '--email', 'other@example.test', '--password-stdin'],
      'Correct-Horse-Battery-9',
    );
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/already registered with that username.*create-admin --promote opsboss/);
    const promoted = await shop(['create-admin', '--promote', 'clerk@example.test']);
    expect(promoted).toMatchObject({ code: 0, out: 'clerk <clerk@example.test> is now a shop manager.\n' });
    await withEngine(async (e) => {
      const user = await e.accounts.auth.login('ops@example.test', 'Correct-Horse-Battery-9', '192.0.2.10');
      expect(user.role).toBe('shop_manager');
      expect((await e.accounts.customers.findByLogin('clerk'))!.role).toBe('shop_manager');
      expect((await e.accounts.customers.findByLogin('opsboss'))!.email).toBe('ops@example.test');
    });
  });

  it('sets a price and stock by SKU; a bad amount is a usage error with the usage text', async () => {
    const price = await shop(['products', 'set-price', 'fx-bravo', '--regular', '299.00', '--sale', '249.5']);
    expect(price).toMatchObject({ code: 0, out: 'Bravo Outdoor Gateway (FX-BRAVO): regular €299.00, sale €249.50.\n' });
    const stock = await shop(['products', 'set-stock', 'FX-BRAVO', '40', '--low-stock', '5']);
    expect(stock).toMatchObject({ code: 0, out: 'Bravo Outdoor Gateway (FX-BRAVO): stock 40.\n' });
    const badAmount = await shop(['products', 'set-price', 'FX-BRAVO', '--regular', '12,50']);
    expect(badAmount.code).toBe(2);
    expect(badAmount.err).toMatch(
      /--regular must be an amount in euros such as 349 or 12\.50[\s\S]*products set-price ID_OR_SKU/,
    );
    await withEngine(async (e) => {
      const p = (await e.catalog.snapshot()).productsBySku.get('fx-bravo')!;
      expect(p).toMatchObject({
        regularPriceCents: 29900,
        salePriceCents: 24950,
        stockQuantity: 40,
        lowStockAmount: 5,
        manageStock: true,
      });
    });
  });

  it('creates and expires a coupon', async () => {
    const created = await shop([
      'coupons',
      'create',
      'Summer',
      '--type',
      'percent',
      '--amount',
      '12.5',
      '--expires',
      '2999-01-01',
      '--usage-limit',
      '100',
    ]);
    expect(created).toMatchObject({
      code: 0,
      out: 'Created coupon summer: 12.5% off (percent), expires 2999-01-01.\n',
    });
    expect(await shop(['coupons', 'expire', 'SUMMER'])).toMatchObject({
      code: 0,
      out: 'Coupon summer has expired (used 0 times).\n',
    });
    await withEngine(async (e) => {
      const c = (await e.coupons.findByCode('summer'))!;
      expect(c).toMatchObject({ discountType: 'percent', amountCents: 1250, usageLimit: 100 });
      expect(c.expiresAt!.getTime()).toBeLessThanOrEqual(Date.now());
    });
  });

  it('lists, completes (with the customer e-mail), cancels (stock back) and refunds orders; a repeated refund pays nothing more', async () => {
    const ids = await withEngine(async (e) => {
      const t = { engine: e } as TestEngine;
      const snap = await e.catalog.snapshot();
      const bravo = snap.productsBySku.get('fx-bravo')!.id;
      const ship = await placePaidOrder(t, { lines: [[bravo, 1, 24950]], email: 'cli.buyer@example.test' });
      const cancel = await placePaidOrder(t, { lines: [[bravo, 3, 24950]] });
      const refund = await placePaidOrder(t, { lines: [[bravo, 1, 3000]] });
      return { ship: ship.id, cancel: cancel.id, refund: refund.id, stockBeforeCancel: await stockOf(e, 'FX-BRAVO') };
    });
    const list = await shop(['orders', 'list', '--status', 'processing']);
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/^order\s+date\s+status\s+customer\s+total\s+payment$/m);
    for (const id of [ids.ship, ids.cancel, ids.refund])
      expect(list.out).toMatch(
        new RegExp(`^${id}\\s+\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}\\s+processing\\s+\\S+@example\\.test\\s+€`, 'm'),
      );

    const complete = await shop([
      'orders',
      'complete',
      String(ids.ship),
      '--tracking',
      '1Z999AA10123456784',
      '--carrier',
      'UPS',
    ]);
    expect(complete).toMatchObject({
      code: 0,
      out: `Order ${ids.ship} is completed. The customer was e-mailed at cli.buyer@example.test.\n`,
    });
    const outbox = readMailSettings({ MESHFRONT_DATA_DIR: env.MESHFRONT_DATA_DIR }).outboxDir;
    const mail = await readOutbox({ dir: outbox, to: 'cli.buyer@example.test' });
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe(`Your Meshfront order #${ids.ship} is complete`);
    expect(mail[0]!.text).toContain('Tracking number: 1Z999AA10123456784 (UPS)');

    expect(await shop(['orders', 'cancel', String(ids.cancel), '--note', 'Out of budget'])).toMatchObject({
      code: 0,
      out: `Order ${ids.cancel} is cancelled; its stock is back.\n`,
    });

    const first = await shop(['orders', 'refund', String(ids.refund), '--amount', '5.00', '--reason', 'Scratched']);
    expect(first).toMatchObject({
      code: 0,
      out: `Refunded €5.00 of order ${ids.refund} (recorded; pay it back outside the shop). Order status: processing.\n`,
    });
    const repeat = await shop(['orders', 'refund', String(ids.refund), '--amount', '5.00', '--reason', 'Scratched']);
    expect(repeat.code).toBe(0);
    expect(repeat.out).toMatch(
      /^Already done: refund \d+ of €5\.00 \(succeeded\) was made with key cli-\d+-500; nothing more was refunded\./,
    );

    await withEngine(async (e) => {
      expect(await stockOf(e, 'FX-BRAVO')).toBe(ids.stockBeforeCancel! + 3);
      expect((await e.orders.get(ids.ship))!.status).toBe('completed');
      expect((await e.orders.get(ids.cancel))!.status).toBe('cancelled');
      const refunds = await new OrderOperator(e.database.db, e.orders).refunds(ids.refund);
      expect(refunds.map((r) => [r.amountCents, r.status, r.createdBy])).toEqual([[500, 'succeeded', 'cli']]);
    });
  });

  it('explains a missing or unknown subcommand with the usage text and exit code 2; a missing order exits 1', async () => {
    const none = await shop(['orders']);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(
      /^Say what to do: list, show, complete, hold, cancel, refund\.[\s\S]*orders refund ID \[--amount 12\.50\]/,
    );
    const missing = await shop(['orders', 'show', '999999']);
    expect(missing).toMatchObject({ code: 1, err: 'shop orders: There is no order 999999.\n' });
    // PostgreSQL has its own backup tools (the embedded database's backups: embedded-database.test.ts).
    if (databaseKind() === 'postgres')
      expect(await shop(['backup'])).toMatchObject({
        code: 1,
        err: expect.stringMatching(/^shop backup: the shop runs on PostgreSQL \(DATABASE_URL\): .*`pg_dump /),
      });
  });
});
