/**
 * The KDA gateway as the checkout and orders domains use it: quote an order (its own payment account,
 * the KDA amount, the payment window) and build the watcher over the configured node.
 */
import { deriveOrderPaymentAccount } from './addresses.ts';
import { serviceBreaker } from '../../service-breaker.ts';
import { ChainwebClient, isChainwebOutage } from './chainweb.ts';
import { fixedRateSource, type RateSource } from './rates.ts';
import type { KadenaSettings } from './settings.ts';
import { KadenaPaymentWatcher, type KadenaPaymentWatcherOptions } from './watcher.ts';

export type KadenaPaymentQuote = {
  /** k:<public key> — where the customer sends KDA. */
  account: string;
  publicKeyHex: string;
  /** SLIP-0010 path of the account's key under the merchant seed. */
  path: string;
  /** KDA to pay, decimal string (≤ 12 decimals), rounded up. */
  amountKda: string;
  eurPerKda: string;
  networkId: string;
  chainId: string;
  windowEndsAt: Date;
};

export class KadenaGatewayError extends Error {
  override name = 'KadenaGatewayError';
}

export type KadenaGateway = {
  settings: KadenaSettings;
  client: ChainwebClient;
  rates: RateSource;
  /**
   * Quote order number `orderIndex` (a stable, unique, non-negative integer below 2^31 — the order's
   * database id) for `amountCents` euro cents. The same index always gives the same account.
   */
  quote(orderIndex: number, amountCents: number, now?: Date): KadenaPaymentQuote;
  createWatcher(
    callbacks: Pick<KadenaPaymentWatcherOptions, 'listOpenCryptoOrders' | 'onProgress'> &
      Partial<KadenaPaymentWatcherOptions>,
  ): KadenaPaymentWatcher;
};

export function createKadenaGateway(settings: KadenaSettings, options: { fetch?: typeof fetch } = {}): KadenaGateway {
  if (!settings.enabled || !settings.eurPerKda || !settings.merchantSeed) {
    throw new KadenaGatewayError('the KDA gateway is off: set KDA_EUR_RATE (and KADENA_MERCHANT_SEED in production)');
  }
  const seed = settings.merchantSeed;
  const rates = fixedRateSource(settings.eurPerKda);
  const client = new ChainwebClient({
    url: settings.chainwebUrl,
    networkId: settings.networkId,
    chainId: settings.chainId,
    confirmations: settings.confirmations,
    timeoutMs: settings.timeoutMs,
    fetch: options.fetch,
    // A node that is down is asked again after the breaker's cooldown, not by every open order each tick.
    breaker: serviceBreaker('the Chainweb node', { isOutage: isChainwebOutage }),
  });
  return {
    settings,
    client,
    rates,
    quote(orderIndex, amountCents, now = new Date()) {
      if (!Number.isSafeInteger(amountCents) || amountCents <= 0)
        throw new KadenaGatewayError('a KDA payment needs a positive amount in cents');
      const { account, publicKeyHex, path } = deriveOrderPaymentAccount(seed, orderIndex);
      const { amountKda, eurPerKda } = rates.quote(amountCents);
      return {
        account,
        publicKeyHex,
        path,
        amountKda,
        eurPerKda,
        networkId: settings.networkId,
        chainId: settings.chainId,
        windowEndsAt: new Date(now.getTime() + settings.paymentWindowMinutes * 60_000),
      };
    },
    createWatcher(callbacks) {
      return new KadenaPaymentWatcher({
        intervalMs: settings.pollIntervalMs,
        readPaymentProgress: (account) => client.readPaymentProgress(account),
        ...callbacks,
      });
    },
  };
}
