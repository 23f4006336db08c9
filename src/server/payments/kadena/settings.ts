/**
 * Settings of the KDA (Kadena) payment gateway, read from the environment and validated with zod.
 * The lead folds these into src/server/config.ts; until then `loadKadenaSettings(process.env)` works alone.
 *
 *   CHAINWEB_URL                  base URL of a Chainweb node's service API (default https://api.chainweb.com).
 *                                 Tests point it at the loopback stand-in in tests/fixtures/chainweb-server.ts.
 *   KADENA_NETWORK_ID             chainweb network id (default mainnet01; testnet04 for the test network).
 *   KADENA_CHAIN_ID               chain the shop's payment accounts live on, "0".."19" (default "1").
 *   KADENA_CONFIRMATIONS          a payment counts as confirmed once this many blocks are mined on top of
 *                                 the block holding it (default 6). Read with /local?rewindDepth=N.
 *   KADENA_MERCHANT_SEED          hex, at least 32 bytes (64 hex characters, at most 64 bytes): the secret
 *                                 every order's payment account is derived from (SLIP-0010). When the
 *                                 gateway is on and no seed is set, one is generated once and kept in
 *                                 <MESHFRONT_DATA_DIR or ./var>/kadena-merchant-seed (mode 0600, with a
 *                                 warning) — except in production with DATABASE_URL, where every engine
 *                                 process must derive the same accounts, so it must be set. Back it up:
 *                                 it is the only key to the money on those accounts.
 *   KDA_RATE_SOURCE               where the EUR→KDA rate comes from: 'fixed' (default, the only one today).
 *   KDA_EUR_RATE                  the fixed rate as a decimal string in EUR per KDA, e.g. "0.50". The KDA
 *                                 gateway is enabled when a rate is configured and off otherwise.
 *   KADENA_PAYMENT_WINDOW_MINUTES how long a crypto order waits for payment (default 60) — timeoutValue.
 *   KADENA_POLL_INTERVAL_MS       how often the watcher asks the node about open crypto orders (default 15000).
 *   KADENA_TIMEOUT_MS             how long one request to the Chainweb node may take, its answer included
 *                                 (default 10000); a node that stays down is left alone for a while by the
 *                                 breaker (service-breaker.ts) and asked again on a later watcher tick.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { dataDirSecret, DataDirSecretError } from '../../data-dir-secret.ts';
import { parseRate, RateError } from './rates.ts';

export class KadenaSettingsError extends Error {
  override name = 'KadenaSettingsError';
}

export type KadenaSettings = {
  /** True when a rate is configured, i.e. orders can be quoted in KDA. */
  enabled: boolean;
  chainwebUrl: string;
  networkId: string;
  chainId: string;
  confirmations: number;
  /** The merchant seed bytes; null when the gateway is off and no seed was configured. */
  merchantSeed: Buffer | null;
  rateSource: 'fixed';
  eurPerKda: string | null;
  paymentWindowMinutes: number;
  pollIntervalMs: number;
  /** KADENA_TIMEOUT_MS: one request to the node. */
  timeoutMs: number;
};

const schema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('production'),
  MESHFRONT_DATA_DIR: z.string().min(1).default('var'),
  DATABASE_URL: z.string().optional(),
  CHAINWEB_URL: z
    .string()
    .url('must be an http(s) URL such as https://api.chainweb.com')
    .refine((u) => /^https?:\/\//.test(u), 'must start with http:// or https://')
    .default('https://api.chainweb.com'),
  KADENA_NETWORK_ID: z
    .string()
    .regex(/^[a-z0-9_-]{1,64}$/i, 'must be a chainweb network id such as mainnet01 or testnet04')
    .default('mainnet01'),
  KADENA_CHAIN_ID: z
    .string()
    .regex(/^(0|[1-9]\d{0,2})$/, 'must be a chain id such as "1"')
    .default('1'),
  KADENA_CONFIRMATIONS: z.coerce.number().int().min(0).max(1000).default(6),
  KADENA_MERCHANT_SEED: z
    .string()
    .regex(/^([0-9a-fA-F]{2}){32,64}$/, 'must be 32 to 64 bytes of hex (64 to 128 hex characters)')
    .optional(),
  KDA_RATE_SOURCE: z.enum(['fixed']).default('fixed'),
  KDA_EUR_RATE: z.string().optional(),
  KADENA_PAYMENT_WINDOW_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(60),
  KADENA_POLL_INTERVAL_MS: z.coerce.number().int().min(200).max(3_600_000).default(15_000),
  KADENA_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
});

/** Read or create the seed file in the data directory; warns when it creates one. A damaged file is never replaced. */
function generatedSeed(dataDir: string, warn: (message: string) => void): Buffer {
  try {
    const hex = dataDirSecret(dataDir, 'kadena-merchant-seed', {
      generate: () => crypto.randomBytes(32).toString('hex'),
      valid: (text) => /^([0-9a-f]{2}){32,64}$/i.test(text),
      onCreate: (file) =>
        warn(
          `[meshfront] KADENA_MERCHANT_SEED is not set: generated a merchant seed in ${file}. Back this file up: it is the only key to the crypto payments the shop receives.`,
        ),
    });
    return Buffer.from(hex, 'hex');
  } catch (err) {
    if (err instanceof DataDirSecretError)
      throw new KadenaSettingsError(
        `Invalid Kadena payment settings:\n  KADENA_MERCHANT_SEED: not set, and ${err.message}`,
      );
    throw err;
  }
}

export function loadKadenaSettings(
  source: Record<string, string | undefined> = process.env,
  options: { warn?: (message: string) => void } = {},
): KadenaSettings {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  const problems = parsed.success ? [] : parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
  if (parsed.success && parsed.data.KDA_EUR_RATE !== undefined) {
    try {
      parseRate(parsed.data.KDA_EUR_RATE);
    } catch (e) {
      problems.push(`  KDA_EUR_RATE: ${e instanceof RateError ? e.message : String(e)}`);
    }
  }
  if (!parsed.success || problems.length)
    throw new KadenaSettingsError(`Invalid Kadena payment settings:\n${problems.join('\n')}`);
  const e = parsed.data;
  const enabled = e.KDA_EUR_RATE !== undefined;
  let merchantSeed: Buffer | null = e.KADENA_MERCHANT_SEED ? Buffer.from(e.KADENA_MERCHANT_SEED, 'hex') : null;
  if (!merchantSeed && enabled) {
    // Several engine processes (PostgreSQL) must all derive the same payment accounts from one seed.
    if (e.NODE_ENV === 'production' && e.DATABASE_URL) {
      throw new KadenaSettingsError(
        'Invalid Kadena payment settings:\n  KADENA_MERCHANT_SEED: required in production with DATABASE_URL when KDA_EUR_RATE enables the gateway (32+ random bytes as hex, e.g. `openssl rand -hex 32`, the same on every engine process)',
      );
    }
    merchantSeed = generatedSeed(path.resolve(e.MESHFRONT_DATA_DIR), options.warn ?? ((m) => console.warn(m)));
  }
  return {
    enabled,
    chainwebUrl: e.CHAINWEB_URL.replace(/\/+$/, ''),
    networkId: e.KADENA_NETWORK_ID,
    chainId: e.KADENA_CHAIN_ID,
    confirmations: e.KADENA_CONFIRMATIONS,
    merchantSeed,
    rateSource: e.KDA_RATE_SOURCE,
    eurPerKda: e.KDA_EUR_RATE ?? null,
    paymentWindowMinutes: e.KADENA_PAYMENT_WINDOW_MINUTES,
    pollIntervalMs: e.KADENA_POLL_INTERVAL_MS,
    timeoutMs: e.KADENA_TIMEOUT_MS,
  };
}
