// KDA payments against the local Chainweb stand-in: each order gets its own Kadena account and a KDA
// amount at the configured rate; the watcher records unconfirmed/confirmed amounts, marks the order paid
// once enough is confirmed, and cancels it (stock back) when the payment window ends unpaid.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveOrderPaymentAccount } from '../../src/server/payments/kadena/addresses.ts';
import { startChainwebServer, type ChainwebStandIn } from '../fixtures/chainweb-server.ts';
import { startTestEngine, type TestEngine } from './harness.ts';
import { BILLING, operation, productId, Shopper, stockOf } from './shop-helpers.ts';

const SEED = '5eed'.repeat(16);
let t: TestEngine;
let chain: ChainwebStandIn;
let ids: Record<string, number>;
beforeAll(async () => {
  chain = await startChainwebServer();
  Object.assign(process.env, {
    CHAINWEB_URL: chain.url,
    KADENA_NETWORK_ID: chain.networkId,
    KADENA_CHAIN_ID: chain.chainId,
    KADENA_CONFIRMATIONS: '6',
    KADENA_MERCHANT_SEED: SEED,
    KDA_EUR_RATE: '0.50',
    KADENA_PAYMENT_WINDOW_MINUTES: '60',
    KADENA_POLL_INTERVAL_MS: '3600000',
  });
  t = await startTestEngine();
  ids = {};
  for (const slug of ['omni-antenna', 'bravo-outdoor-gateway']) ids[slug] = await productId(t, slug);
}, 300_000);
afterAll(async () => {
  await t?.close();
  await chain?.stop();
});

const ADD = operation('addToCart');
const CHECKOUT = operation('Checkout');
const GET_ORDER = operation('getOrder');
const CRYPTO =
  'query($id: ID!) { order(id: $id, idType: DATABASE_ID) { status needsPayment datePaid paymentCurrency cryptoAmount cryptoRate paymentAddress receivedUnconfirmed receivedConfirmed timeoutValue paymentExpiresAt } }';

async function kdaOrder(slug: string, quantity = 1) {
  const s = new Shopper(t);
  await s.ok(ADD, { productId: ids[slug], quantity });
  const o = (await s.ok(CHECKOUT, { paymentMethod: 'kda', billing: BILLING })).checkout.order;
  const crypto = (await s.ok(CRYPTO, { id: String(o.databaseId) })).order;
  return { s, o, crypto };
}

describe('KDA gateway', () => {
  it('is listed when a rate is configured', async () => {
    const gateways = (await t.data('query { paymentGateways { nodes { id title } } }')).paymentGateways.nodes.map(
      (g: any) => g.id,
    );
    expect(gateways).toEqual(['kda', 'cod']);
  });

  it('gives the order its own account, the KDA amount at the rate and a payment window; stock is held', async () => {
    const before = await stockOf(t, 'omni-antenna');
    const { o, crypto } = await kdaOrder('omni-antenna'); // 49.90 incl. 7.97 VAT + 4.12 + 0.78 = €54.80
    expect(o).toMatchObject({ status: 'PENDING', needsPayment: true, paymentMethod: 'kda', rawTotal: '54.8' });
    expect(crypto).toMatchObject({
      paymentCurrency: 'KDA',
      cryptoAmount: '109.6',
      cryptoRate: '0.50',
      receivedUnconfirmed: '0',
      receivedConfirmed: '0',
    });
    expect(crypto.paymentAddress).toBe(deriveOrderPaymentAccount(Buffer.from(SEED, 'hex'), o.databaseId).account);
    expect(crypto.timeoutValue).toBeGreaterThan(3500);
    expect(crypto.timeoutValue).toBeLessThanOrEqual(3600);
    expect(await stockOf(t, 'omni-antenna')).toBe(before! - 1);
    const other = await kdaOrder('omni-antenna');
    expect(other.crypto.paymentAddress).not.toBe(crypto.paymentAddress);
  });

  it('records unconfirmed and confirmed amounts and marks the order paid once enough is confirmed', async () => {
    const { s, o, crypto } = await kdaOrder('bravo-outdoor-gateway'); // €449.00 incl. VAT, free shipping → 898 KDA
    expect(crypto.cryptoAmount).toBe('898.0');
    chain.transfer(crypto.paymentAddress, '800');
    await t.engine.kdaWatcher!.runOnce();
    let now = (await s.ok(CRYPTO, { id: String(o.databaseId) })).order;
    expect(now).toMatchObject({ status: 'PENDING', receivedUnconfirmed: '800.0', receivedConfirmed: '0.0' });
    chain.transfer(crypto.paymentAddress, '98');
    chain.mineBlocks(3);
    await t.engine.kdaWatcher!.runOnce();
    now = (await s.ok(CRYPTO, { id: String(o.databaseId) })).order;
    expect(now).toMatchObject({ status: 'PENDING', receivedUnconfirmed: '898.0', receivedConfirmed: '0.0' });
    chain.mineBlocks(3);
    // two processes' watchers racing on the same order: it is paid once
    await Promise.all([t.engine.kdaWatcher!.runOnce(), t.engine.kdaWatcher!.runOnce()]);
    now = (await s.ok(CRYPTO, { id: String(o.databaseId) })).order;
    expect(now).toMatchObject({ status: 'PROCESSING', needsPayment: false, receivedConfirmed: '898.0' });
    expect(now.datePaid).toBeTruthy();
    const notes = await t.engine.orders.notes(o.databaseId);
    expect(notes.filter((n) => /KDA payment of/.test(n.note))).toHaveLength(1);
    expect((await s.ok(GET_ORDER, { id: String(o.databaseId) })).order.status).toBe('PROCESSING');
  });

  it('cancels the order and restores stock when the window ends unpaid', async () => {
    const before = await stockOf(t, 'omni-antenna');
    const { s, o, crypto } = await kdaOrder('omni-antenna', 2);
    expect(await stockOf(t, 'omni-antenna')).toBe(before! - 2);
    chain.transfer(crypto.paymentAddress, '1'); // a partial payment does not keep the order alive
    chain.mineBlocks(6);
    // Arrange the end of the window (the real one is an hour).
    await t.engine.database.db.execute(
      sql`update orders set payment_expires_at = now() - interval '1 second' where id = ${o.databaseId}`,
    );
    await t.engine.kdaWatcher!.runOnce();
    const now = (await s.ok(CRYPTO, { id: String(o.databaseId) })).order;
    expect(now).toMatchObject({ status: 'CANCELLED', receivedConfirmed: '1.0', timeoutValue: 0 });
    expect(await stockOf(t, 'omni-antenna')).toBe(before);
    // a later payment no longer changes a cancelled order
    chain.transfer(crypto.paymentAddress, '200');
    chain.mineBlocks(6);
    await t.engine.kdaWatcher!.runOnce();
    expect((await s.ok(CRYPTO, { id: String(o.databaseId) })).order.status).toBe('CANCELLED');
  });
});
