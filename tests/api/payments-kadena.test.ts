// KDA payments: key derivation (SLIP-0010 vectors), exact EUR→KDA quotes, the Chainweb client against the
// loopback stand-in node (tests/fixtures/chainweb-server.ts), the paid/pending/expired decision and the poller.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deriveOrderPaymentAccount,
  deriveOrderPrivateKey,
  ed25519PublicKey,
  isKAccount,
  slip10Derive,
  slip10MasterKey,
} from '../../src/server/payments/kadena/addresses.ts';
import { blake2b, blake2b256 } from '../../src/server/payments/kadena/blake2b.ts';
import { ChainwebClient, ChainwebError, pactDecimalToUnits } from '../../src/server/payments/kadena/chainweb.ts';
import {
  compareKda,
  formatKda,
  KdaAmountError,
  normalizeKda,
  parseKda,
  parseKdaJsonNumber,
} from '../../src/server/payments/kadena/decimal.ts';
import { createKadenaGateway } from '../../src/server/payments/kadena/gateway.ts';
import { buildLocalCommand, getBalanceCode, pactHash } from '../../src/server/payments/kadena/pact.ts';
import { eurCentsToKda, parseRate, RateError } from '../../src/server/payments/kadena/rates.ts';
import { KadenaSettingsError, loadKadenaSettings } from '../../src/server/payments/kadena/settings.ts';
import {
  decidePaymentState,
  KadenaPaymentWatcher,
  type OpenCryptoOrder,
  type PaymentState,
} from '../../src/server/payments/kadena/watcher.ts';
import type { PaymentProgress } from '../../src/server/payments/kadena/chainweb.ts';
import { startChainwebServer, type ChainwebStandIn } from '../fixtures/chainweb-server.ts';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('BLAKE2b (Pact command hashes)', () => {
  it('matches published BLAKE2b-256 and RFC 7693 BLAKE2b-512 vectors', () => {
    expect(hex(blake2b256(''))).toBe('0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8');
    expect(hex(blake2b256('abc'))).toBe('bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319');
    // RFC 7693 Appendix A: BLAKE2b-512("abc")
    expect(hex(blake2b('abc', 64))).toBe(
      'ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923',
    );
  });

  it('agrees with node:crypto blake2b512 across block boundaries', () => {
    for (const length of [0, 1, 127, 128, 129, 255, 256, 257, 1000, 5000]) {
      const data = crypto.randomBytes(length);
      expect(hex(blake2b(data, 64)), `length ${length}`).toBe(
        crypto.createHash('blake2b512').update(data).digest('hex'),
      );
    }
  });

  it('is not a truncated BLAKE2b-512 (the length is part of the state)', () => {
    expect(hex(blake2b256('abc'))).not.toBe(hex(blake2b('abc', 64)).slice(0, 64));
  });
});

describe('per-order payment accounts (SLIP-0010 ed25519)', () => {
  // SLIP-0010 "Test vector 1 for ed25519", seed 000102030405060708090a0b0c0d0e0f.
  const seed1 = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex');
  const vector1 = [
    {
      path: [],
      chainCode: '90046a93de5380a72b5e45010748567d5ea02bbf6522f979e05c0d8d8ca9fffb',
      priv: '2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7',
      pub: '00a4b2856bfec510abab89753fac1ac0e1112364e7d250545963f135f2a33188ed',
    },
    {
      path: [0],
      chainCode: '8b59aa11380b624e81507a27fedda59fea6d0b779a778918a2fd3590e16e9c69',
      priv: '68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3',
      pub: '008c8a13df77a28f3445213a0f432fde644acaa215fc72dcdf300d5efaa85d350c',
    },
    {
      path: [0, 1],
      chainCode: 'a320425f77d1b5c2505a6b1b27382b37368ee640e3557c315416801243552f14',
      priv: 'b1d0bad404bf35da785a64ca1ac54b2617211d2777696fbffaf208f746ae84f2',
      pub: '001932a5270f335bed617d5b935c80aedb1a35bd9fc1e31acafd5372c30f5c1187',
    },
    {
      path: [0, 1, 2],
      chainCode: '2e69929e00b5ab250f49c3fb1c12f252de4fed2c1db88387094a0f8c4c9ccd6c',
      priv: '92a5b23c0b8a99e37d07df3fb9966917f5d06e02ddbd909c7e184371463e9fc9',
      pub: '00ae98736566d30ed0e9d2f4486a64bc95740d89c7db33f52121f8ea8f76ff0fc1',
    },
  ];

  it.each(vector1)('matches the official vector at m/$path (hardened)', ({ path: p, chainCode, priv, pub }) => {
    const key = p.length ? slip10Derive(seed1, p) : slip10MasterKey(seed1);
    expect(hex(key.chainCode)).toBe(chainCode);
    expect(hex(key.privateKey)).toBe(priv);
    // SLIP-0010 writes ed25519 public keys with a 0x00 prefix byte.
    expect(`00${hex(ed25519PublicKey(key.privateKey))}`).toBe(pub);
  });

  it("derives a k: account per order index, deterministically, under m/44'/626'/i'", () => {
    const seed = Buffer.from('11'.repeat(32), 'hex');
    const a = deriveOrderPaymentAccount(seed, 7);
    expect(a.path).toBe("m/44'/626'/7'");
    expect(a.account).toBe(`k:${a.publicKeyHex}`);
    expect(isKAccount(a.account)).toBe(true);
    expect(deriveOrderPaymentAccount(seed, 7)).toEqual(a);
    expect(deriveOrderPaymentAccount(seed, 8).account).not.toBe(a.account);
    expect(deriveOrderPaymentAccount(Buffer.from('12'.repeat(32), 'hex'), 7).account).not.toBe(a.account);
    // The private key for sweeping belongs to the same public key.
    expect(hex(ed25519PublicKey(deriveOrderPrivateKey(seed, 7)))).toBe(a.publicKeyHex);
  });

  it('signs with the derived key so that the account can really be spent from', () => {
    const seed = Buffer.from('22'.repeat(32), 'hex');
    const { publicKeyHex } = deriveOrderPaymentAccount(seed, 3);
    const priv = crypto.createPrivateKey({
      key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), deriveOrderPrivateKey(seed, 3)]),
      format: 'der',
      type: 'pkcs8',
    });
    const pub = crypto.createPublicKey({
      key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(publicKeyHex, 'hex')]),
      format: 'der',
      type: 'spki',
    });
    const sig = crypto.sign(null, Buffer.from('pact hash'), priv);
    expect(crypto.verify(null, Buffer.from('pact hash'), pub, sig)).toBe(true);
  });

  it('refuses indices outside [0, 2^31)', () => {
    const seed = Buffer.alloc(32, 1);
    expect(() => deriveOrderPaymentAccount(seed, -1)).toThrow(RangeError);
    expect(() => deriveOrderPaymentAccount(seed, 2 ** 31)).toThrow(RangeError);
    expect(() => deriveOrderPaymentAccount(seed, 1.5)).toThrow(RangeError);
  });
});

describe('KDA amounts and rates (BigInt, never floats)', () => {
  it('parses and formats Pact decimals', () => {
    expect(parseKda('12.5')).toBe(12_500_000_000_000n);
    expect(formatKda(12_500_000_000_000n)).toBe('12.5');
    expect(formatKda(10n * 10n ** 12n)).toBe('10.0');
    expect(formatKda(1n)).toBe('0.000000000001');
    expect(normalizeKda('3')).toBe('3.0');
    expect(normalizeKda('0.100000000000000')).toBe('0.1');
    expect(compareKda('1.000000000001', '1.0')).toBe(1);
    expect(() => parseKda('0.0000000000001')).toThrow(KdaAmountError);
    expect(() => parseKda('-1')).toThrow(KdaAmountError);
    expect(() => parseKda('1e3')).toThrow(KdaAmountError);
  });

  it('reads JSON numbers exactly, including the exponent spelling Haskell emits', () => {
    expect(parseKdaJsonNumber('1.0e-3')).toBe(1_000_000_000n);
    expect(parseKdaJsonNumber('2.5E7')).toBe(25_000_000n * 10n ** 12n);
    expect(parseKdaJsonNumber('0.1')).toBe(100_000_000_000n);
    expect(parseKdaJsonNumber('123456789.123456789012')).toBe(123_456_789_123_456_789_012n);
    expect(() => parseKdaJsonNumber('1.0e-13')).toThrow(KdaAmountError);
  });

  it('converts EUR cents to KDA exactly and rounds up', () => {
    expect(eurCentsToKda(34_900, '0.50')).toBe('698.0');
    expect(eurCentsToKda(1, '0.50')).toBe('0.02');
    // 1 cent at 3 EUR/KDA = 0.00333… → rounded UP at the 12th decimal
    expect(eurCentsToKda(1, '3')).toBe('0.003333333334');
    expect(eurCentsToKda(100, '3')).toBe('0.333333333334');
    expect(eurCentsToKda(30_000, '3')).toBe('100.0');
    // a rate with many decimals stays exact: 0.1 EUR = 0.1 / 0.123456789 KDA
    expect(eurCentsToKda(10, '0.123456789')).toBe('0.810000007372');
    // never short: quoted KDA × rate ≥ amount
    for (const [cents, rate] of [
      [1, '0.07'],
      [99_999, '0.4321'],
      [12_345, '7.77'],
      [5, '1234.5678'],
    ] as const) {
      const kda = parseKda(eurCentsToKda(cents, rate));
      const r = parseRate(rate);
      // kda[1e-12] × rate[num/10^scale] ≥ cents/100  ⇔  kda · num · 100 ≥ cents · 10^scale · 10^12
      expect(kda * r.numerator * 100n >= BigInt(cents) * 10n ** BigInt(r.scale) * 10n ** 12n).toBe(true);
      // and at most one unit above the exact value
      expect((kda - 1n) * r.numerator * 100n < BigInt(cents) * 10n ** BigInt(r.scale) * 10n ** 12n).toBe(true);
    }
  });

  it('refuses bad rates and amounts', () => {
    expect(() => parseRate('0')).toThrow(RateError);
    expect(() => parseRate('0.5e1')).toThrow(RateError);
    expect(() => parseRate('-1')).toThrow(RateError);
    expect(() => eurCentsToKda(10.5, '1')).toThrow(RateError);
  });
});

describe('settings', () => {
  it('uses the documented defaults and is off without a rate', () => {
    const s = loadKadenaSettings({});
    expect(s).toMatchObject({
      enabled: false,
      chainwebUrl: 'https://api.chainweb.com',
      networkId: 'mainnet01',
      chainId: '1',
      confirmations: 6,
      merchantSeed: null,
      rateSource: 'fixed',
      eurPerKda: null,
      paymentWindowMinutes: 60,
      pollIntervalMs: 15_000,
    });
  });

  it('requires the merchant seed in production with PostgreSQL, and otherwise generates one kept in the data directory', () => {
    expect(() =>
      loadKadenaSettings({ NODE_ENV: 'production', DATABASE_URL: 'postgres://u@h/db', KDA_EUR_RATE: '0.50' }),
    ).toThrow(/KADENA_MERCHANT_SEED: required in production with DATABASE_URL/);
    // The embedded database (one process): production and development alike keep a generated seed.
    for (const NODE_ENV of ['production', 'development']) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshfront-kda-'));
      try {
        const warnings: string[] = [];
        const a = loadKadenaSettings(
          { NODE_ENV, MESHFRONT_DATA_DIR: dir, KDA_EUR_RATE: '0.50' },
          { warn: (m) => warnings.push(m) },
        );
        const b = loadKadenaSettings(
          { NODE_ENV, MESHFRONT_DATA_DIR: dir, KDA_EUR_RATE: '0.50' },
          { warn: (m) => warnings.push(m) },
        );
        expect(a.merchantSeed!.length).toBe(32);
        expect(b.merchantSeed!.equals(a.merchantSeed!)).toBe(true);
        expect(warnings).toHaveLength(1);
        expect(fs.statSync(path.join(dir, 'kadena-merchant-seed')).mode & 0o777).toBe(0o600);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it('never replaces a damaged seed file (it may be the only key to received payments)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshfront-kda-'));
    try {
      fs.writeFileSync(path.join(dir, 'kadena-merchant-seed'), 'abc\n');
      expect(() =>
        loadKadenaSettings({ NODE_ENV: 'production', MESHFRONT_DATA_DIR: dir, KDA_EUR_RATE: '0.50' }),
      ).toThrow(/kadena-merchant-seed does not hold a valid secret/);
      expect(fs.readFileSync(path.join(dir, 'kadena-merchant-seed'), 'utf8')).toBe('abc\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses short seeds, bad rates and bad chain ids', () => {
    expect(() => loadKadenaSettings({ KADENA_MERCHANT_SEED: 'ab'.repeat(31) })).toThrow(KadenaSettingsError);
    expect(() => loadKadenaSettings({ KDA_EUR_RATE: 'cheap' })).toThrow(/KDA_EUR_RATE/);
    expect(() => loadKadenaSettings({ KADENA_CHAIN_ID: 'one' })).toThrow(/KADENA_CHAIN_ID/);
  });
});

describe('Pact commands', () => {
  it('hashes the exact cmd text with BLAKE2b-256 as base64url', () => {
    const command = buildLocalCommand({
      code: getBalanceCode(`k:${'a'.repeat(64)}`),
      networkId: 'testnet04',
      chainId: '3',
      creationTime: 1_700_000_000,
      nonce: 'n1',
    });
    expect(command.sigs).toEqual([]);
    expect(command.hash).toBe(Buffer.from(blake2b256(command.cmd)).toString('base64url'));
    expect(command.hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cmd = JSON.parse(command.cmd);
    expect(cmd).toEqual({
      networkId: 'testnet04',
      payload: { exec: { code: `(coin.get-balance "k:${'a'.repeat(64)}")`, data: {} } },
      signers: [],
      meta: { chainId: '3', sender: '', gasLimit: 1500, gasPrice: 1e-8, ttl: 600, creationTime: 1_700_000_000 },
      nonce: 'n1',
    });
    expect(pactHash(`${command.cmd} `)).not.toBe(command.hash);
  });

  it('only builds get-balance for k: accounts', () => {
    expect(() => getBalanceCode('k:abc")(coin.transfer')).toThrow(RangeError);
    expect(() => getBalanceCode('alice')).toThrow(RangeError);
  });

  it('reads Pact decimals in every JSON spelling', () => {
    expect(pactDecimalToUnits({ __rawNumber: '12.5' })).toBe(12_500_000_000_000n);
    expect(pactDecimalToUnits({ decimal: '0.123456789012' })).toBe(123_456_789_012n);
    expect(pactDecimalToUnits({ int: { __rawNumber: '5' } })).toBe(5n * 10n ** 12n);
  });
});

describe('Chainweb client against the stand-in node', () => {
  let node: ChainwebStandIn;
  let client: ChainwebClient;
  const seed = Buffer.from('33'.repeat(32), 'hex');
  beforeAll(async () => {
    node = await startChainwebServer({ networkId: 'mainnet01', chainId: '1' });
    client = new ChainwebClient({
      url: node.url,
      networkId: 'mainnet01',
      chainId: '1',
      confirmations: 6,
      timeoutMs: 2000,
    });
  });
  afterAll(async () => {
    await node?.stop();
  });

  it('reads the chain height from the cut', async () => {
    const cut = await client.getCut();
    expect(cut.chainHeight).toBe(node.height);
    expect(Object.keys(cut.hashes)).toHaveLength(20);
    expect(cut.cutHeight).toBe(node.height * 20);
  });

  it('sends a well-formed unsigned command with signatureVerification=false', async () => {
    const { account } = deriveOrderPaymentAccount(seed, 1);
    await client.getBalance(account, { rewindDepth: 6 });
    const req = node.requests.findLast((r) => r.url.includes('/local'))!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/chainweb/0.0/mainnet01/chain/1/pact/api/v1/local?signatureVerification=false&rewindDepth=6');
    const body = req.body as { hash: string; sigs: unknown[]; cmd: string };
    expect(body.sigs).toEqual([]);
    expect(pactHash(body.cmd)).toBe(body.hash);
  });

  it('reports 0 for an account that does not exist yet (Pact 5 and Pact 4 wordings)', async () => {
    const { account } = deriveOrderPaymentAccount(seed, 2);
    expect(await client.readPaymentProgress(account)).toEqual({
      receivedUnconfirmedKda: '0.0',
      receivedConfirmedKda: '0.0',
      height: node.height,
    });
    const pact4 = await startChainwebServer({ errorStyle: 'pact4' });
    try {
      const c4 = new ChainwebClient({ url: pact4.url, networkId: 'mainnet01', chainId: '1', confirmations: 6 });
      expect(await c4.getBalance(account)).toBe('0.0');
    } finally {
      await pact4.stop();
    }
  });

  it('shows a transfer as unconfirmed at once and as confirmed after N blocks', async () => {
    const { account } = deriveOrderPaymentAccount(seed, 3);
    node.transfer(account, '698.0');
    expect(await client.readPaymentProgress(account)).toMatchObject({
      receivedUnconfirmedKda: '698.0',
      receivedConfirmedKda: '0.0',
    });
    node.mineBlocks(5);
    expect(await client.readPaymentProgress(account)).toMatchObject({
      receivedUnconfirmedKda: '698.0',
      receivedConfirmedKda: '0.0',
    });
    node.mineBlocks(1);
    const progress = await client.readPaymentProgress(account);
    expect(progress).toEqual({ receivedUnconfirmedKda: '698.0', receivedConfirmedKda: '698.0', height: node.height });
    // A second, smaller payment adds up and confirms separately, to the last of 12 decimals.
    node.transfer(account, '0.000000000001');
    expect(await client.readPaymentProgress(account)).toMatchObject({
      receivedUnconfirmedKda: '698.000000000001',
      receivedConfirmedKda: '698.0',
    });
  });

  it('keeps every digit of large balances ({"decimal": …}) and of exponent spellings', async () => {
    const { account } = deriveOrderPaymentAccount(seed, 4);
    node.transfer(account, '123456789.123456789012');
    expect(await client.getBalance(account)).toBe('123456789.123456789012');
    const exp = await startChainwebServer({ decimalStyle: 'exponent' });
    try {
      exp.transfer(account, '0.001');
      const c = new ChainwebClient({ url: exp.url, networkId: 'mainnet01', chainId: '1', confirmations: 0 });
      expect(await c.getBalance(account)).toBe('0.001');
      expect(exp.requests.length).toBeGreaterThan(0);
    } finally {
      await exp.stop();
    }
  });

  it('treats a chain shallower than the confirmation depth as nothing confirmed', async () => {
    const young = await startChainwebServer({ startHeight: 3 });
    try {
      const { account } = deriveOrderPaymentAccount(seed, 5);
      young.transfer(account, '1.0');
      const c = new ChainwebClient({ url: young.url, networkId: 'mainnet01', chainId: '1', confirmations: 6 });
      expect(await c.readPaymentProgress(account)).toEqual({
        receivedUnconfirmedKda: '1.0',
        receivedConfirmedKda: '0.0',
        height: 3,
      });
    } finally {
      await young.stop();
    }
  });

  it('the stand-in refuses bad hashes, wrong networks and chains, and code other than get-balance', async () => {
    const post = (body: unknown, chain = '1', network = 'mainnet01') =>
      fetch(`${node.url}/chainweb/0.0/${network}/chain/${chain}/pact/api/v1/local?signatureVerification=false`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const good = buildLocalCommand({
      code: getBalanceCode(`k:${'b'.repeat(64)}`),
      networkId: 'mainnet01',
      chainId: '1',
    });
    expect((await post({ ...good, hash: pactHash('other') })).status).toBe(400);
    expect((await post(good, '2')).status).toBe(400);
    expect((await post(good, '1', 'testnet04')).status).toBe(404);
    const wrongNet = buildLocalCommand({
      code: getBalanceCode(`k:${'b'.repeat(64)}`),
      networkId: 'testnet04',
      chainId: '1',
    });
    expect(await (await post(wrongNet)).text()).toMatch(/Network id mismatch/);
    const transfer = buildLocalCommand({ code: '(coin.transfer "a" "b" 1.0)', networkId: 'mainnet01', chainId: '1' });
    const res = await post(transfer);
    expect(res.status).toBe(200);
    expect((await res.json()).result).toMatchObject({ status: 'failure', error: { type: 'EvalError' } });
    // and the client turns such a failure into an error rather than a balance
    await expect(client.local('(coin.details "x")')).resolves.toMatchObject({ status: 'failure' });
  });

  it('raises ChainwebError when the node is down, and recovers when it is back', async () => {
    const { account } = deriveOrderPaymentAccount(seed, 6);
    node.setDown(true);
    const error = await client.readPaymentProgress(account).catch((e) => e);
    expect(error).toBeInstanceOf(ChainwebError);
    expect(error.details.status).toBe(503);
    node.setDown(false);
    await expect(client.readPaymentProgress(account)).resolves.toMatchObject({ receivedConfirmedKda: '0.0' });
    const nowhere = new ChainwebClient({
      url: 'http://127.0.0.1:1',
      networkId: 'mainnet01',
      chainId: '1',
      confirmations: 6,
      timeoutMs: 1000,
    });
    await expect(nowhere.getCut()).rejects.toThrow(/unreachable/);
  });
});

describe('decidePaymentState', () => {
  const t0 = Date.UTC(2026, 0, 1, 12);
  const windowEndsAt = t0 + 60 * 60_000;
  const decide = (confirmed: string, unconfirmed: string, now: number) =>
    decidePaymentState({
      amountKda: '698.0',
      receivedConfirmedKda: confirmed,
      receivedUnconfirmedKda: unconfirmed,
      now,
      windowEndsAt,
    });

  it('is paid once the confirmed amount covers the quote, even past the window', () => {
    expect(decide('698.0', '698.0', t0)).toBe('paid');
    expect(decide('700.5', '700.5', t0)).toBe('paid');
    expect(decide('698.0', '698.0', windowEndsAt + 10 * 3600_000)).toBe('paid');
  });

  it('is pending inside the window, whatever was received', () => {
    expect(decide('0.0', '0.0', t0)).toBe('pending');
    expect(decide('697.999999999999', '698.0', t0)).toBe('pending');
  });

  it('expires after the window when nothing or too little arrived', () => {
    expect(decide('0.0', '0.0', windowEndsAt)).toBe('expired');
    expect(decide('500.0', '500.0', windowEndsAt + 1)).toBe('expired');
  });

  it('waits for confirmations of a covering payment past the window, for a bounded grace', () => {
    expect(decide('0.0', '698.0', windowEndsAt + 60_000)).toBe('pending');
    expect(decide('0.0', '698.0', windowEndsAt + 31 * 60_000)).toBe('expired');
    expect(
      decidePaymentState({
        amountKda: '1.0',
        receivedConfirmedKda: '0.0',
        receivedUnconfirmedKda: '1.0',
        now: windowEndsAt + 5000,
        windowEndsAt,
        confirmationGraceMs: 1000,
      }),
    ).toBe('expired');
  });
});

describe('KadenaPaymentWatcher', () => {
  const progress = (c: string, u = c): PaymentProgress => ({
    receivedConfirmedKda: c,
    receivedUnconfirmedKda: u,
    height: 1,
  });
  const quietLog = () => {};

  it('reports every open order with its state', async () => {
    const orders: OpenCryptoOrder[] = [
      { orderId: 1, account: 'k:1', amountKda: '1.0', windowEndsAt: Date.now() + 60_000 },
      { orderId: 2, account: 'k:2', amountKda: '1.0', windowEndsAt: Date.now() + 60_000 },
      { orderId: 3, account: 'k:3', amountKda: '1.0', windowEndsAt: Date.now() - 1 },
    ];
    const balances: Record<string, PaymentProgress> = {
      'k:1': progress('1.0'),
      'k:2': progress('0.5'),
      'k:3': progress('0.0'),
    };
    const seen: [OpenCryptoOrder['orderId'], PaymentState][] = [];
    const watcher = new KadenaPaymentWatcher({
      intervalMs: 1000,
      readPaymentProgress: async (a) => balances[a]!,
      listOpenCryptoOrders: async () => orders,
      onProgress: (id, _p, state) => void seen.push([id, state]),
      log: quietLog,
    });
    const summary = await watcher.runOnce();
    expect(summary).toMatchObject({ orders: 3, checked: 3, failed: 0, states: { paid: 1, pending: 1, expired: 1 } });
    expect(seen.sort()).toEqual([
      [1, 'paid'],
      [2, 'pending'],
      [3, 'expired'],
    ]);
  });

  it('never overlaps runs: a call during a run joins it, and the timer waits for the run to end', async () => {
    let active = 0;
    let maxActive = 0;
    let lists = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const watcher = new KadenaPaymentWatcher({
      intervalMs: 5,
      jitter: 0,
      readPaymentProgress: async () => progress('0.0'),
      listOpenCryptoOrders: async () => {
        lists++;
        active++;
        maxActive = Math.max(maxActive, active);
        await gate;
        active--;
        return [];
      },
      onProgress: () => {},
      log: quietLog,
    });
    const a = watcher.runOnce();
    const b = watcher.runOnce();
    expect(b).toBe(a);
    watcher.start();
    await new Promise((r) => setTimeout(r, 60)); // many intervals pass while the first run is stuck
    expect(lists).toBe(1);
    release();
    await a;
    await new Promise((r) => setTimeout(r, 60));
    await watcher.stop();
    expect(maxActive).toBe(1);
    expect(lists).toBeGreaterThan(1);
  });

  it('survives node errors and callback errors: logs once per pass and retries on the next tick', async () => {
    const node = await startChainwebServer();
    try {
      const client = new ChainwebClient({
        url: node.url,
        networkId: 'mainnet01',
        chainId: '1',
        confirmations: 2,
        timeoutMs: 1000,
      });
      const seed = Buffer.alloc(32, 9);
      const { account } = deriveOrderPaymentAccount(seed, 1);
      const logs: string[] = [];
      const states: PaymentState[] = [];
      let listFails = true;
      const watcher = new KadenaPaymentWatcher({
        intervalMs: 10,
        readPaymentProgress: (a) => client.readPaymentProgress(a),
        listOpenCryptoOrders: async () => {
          if (listFails) {
            listFails = false;
            throw new Error('database busy');
          }
          return [{ orderId: 'A', account, amountKda: '2.5', windowEndsAt: Date.now() + 60_000 }];
        },
        onProgress: (_id, _p, state) => void states.push(state),
        log: (level, message) => logs.push(`${level}: ${message}`),
      });
      // The error as the log may show it (error-summary.ts: class and redacted message).
      expect(await watcher.runOnce()).toMatchObject({ orders: 0, error: 'Error: database busy' });
      node.setDown(true);
      expect(await watcher.runOnce()).toMatchObject({ orders: 1, checked: 0, failed: 1 });
      expect(logs.some((l) => /could not list/.test(l))).toBe(true);
      expect(logs.some((l) => /1 of 1 crypto orders could not be checked/.test(l))).toBe(true);
      node.setDown(false);
      node.transfer(account, '2.5');
      node.mineBlocks(2);
      watcher.start({ immediately: true });
      await expect.poll(() => states.at(-1), { timeout: 2000 }).toBe('paid');
      await watcher.stop();
      expect(watcher.isRunning).toBe(false);
    } finally {
      await node.stop();
    }
  });

  it('jitters the interval within ±jitter', () => {
    const w = (r: number) =>
      new KadenaPaymentWatcher({
        intervalMs: 1000,
        jitter: 0.2,
        random: () => r,
        readPaymentProgress: async () => progress('0'),
        listOpenCryptoOrders: async () => [],
        onProgress: () => {},
      });
    expect(w(0).nextDelay()).toBe(800);
    expect(w(0.5).nextDelay()).toBe(1000);
    expect(w(0.999999).nextDelay()).toBe(1200);
  });
});

describe('gateway', () => {
  it('quotes an order: its own account, the KDA amount and the window end', () => {
    const settings = loadKadenaSettings({
      KADENA_MERCHANT_SEED: '44'.repeat(32),
      KDA_EUR_RATE: '0.50',
      KADENA_PAYMENT_WINDOW_MINUTES: '30',
      CHAINWEB_URL: 'http://127.0.0.1:9/',
    });
    const gateway = createKadenaGateway(settings);
    const now = new Date(Date.UTC(2026, 5, 1));
    const quote = gateway.quote(42, 34_900, now);
    expect(quote).toMatchObject({
      amountKda: '698.0',
      eurPerKda: '0.50',
      networkId: 'mainnet01',
      chainId: '1',
      path: "m/44'/626'/42'",
    });
    expect(quote.account).toBe(deriveOrderPaymentAccount(Buffer.from('44'.repeat(32), 'hex'), 42).account);
    expect(quote.windowEndsAt.getTime() - now.getTime()).toBe(30 * 60_000);
    expect(gateway.client.base).toBe('http://127.0.0.1:9/chainweb/0.0/mainnet01');
    expect(() => gateway.quote(43, 0)).toThrow(/positive/);
    expect(() => createKadenaGateway(loadKadenaSettings({}))).toThrow(/gateway is off/);
  });
});
