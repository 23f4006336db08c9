/**
 * One Kadena payment account per order, derived from the merchant seed with SLIP-0010 (ed25519, hardened
 * derivation only — ed25519 has no public derivation). The account is the "k:" principal of the derived
 * public key, which any wallet can pay with `coin.transfer-create`; the shop can later re-derive the
 * private key from the same seed to sweep it. Path: m/44'/626'/<orderIndex>' (626 = Kadena's SLIP-44
 * coin type, the path Kadena's own SLIP-10 wallets use).
 */
import crypto from 'node:crypto';

export const HARDENED = 0x80000000;
export const KADENA_COIN_TYPE = 626;

export type ExtendedKey = { privateKey: Buffer; chainCode: Buffer };
export type PaymentAccount = { publicKeyHex: string; account: string; path: string };

/** SLIP-0010 master key for ed25519: HMAC-SHA512(key = "ed25519 seed", seed). */
export function slip10MasterKey(seed: Uint8Array): ExtendedKey {
  if (seed.length < 16 || seed.length > 64) throw new RangeError('SLIP-0010 seeds are 16 to 64 bytes');
  const I = crypto.createHmac('sha512', 'ed25519 seed').update(seed).digest();
  return { privateKey: I.subarray(0, 32), chainCode: I.subarray(32) };
}

/** Hardened child: HMAC-SHA512(chainCode, 0x00 || k || ser32(index + 2^31)). */
export function slip10HardenedChild(parent: ExtendedKey, index: number): ExtendedKey {
  if (!Number.isInteger(index) || index < 0 || index >= HARDENED)
    throw new RangeError(`child index must be an integer in [0, 2^31), got ${index}`);
  const data = Buffer.alloc(37);
  data[0] = 0;
  parent.privateKey.copy(data, 1);
  data.writeUInt32BE((index + HARDENED) >>> 0, 33);
  const I = crypto.createHmac('sha512', parent.chainCode).update(data).digest();
  return { privateKey: I.subarray(0, 32), chainCode: I.subarray(32) };
}

/** Derive along a path of (unhardened) indices, each applied as a hardened step. */
export function slip10Derive(seed: Uint8Array, indices: readonly number[]): ExtendedKey {
  return indices.reduce((key, index) => slip10HardenedChild(key, index), slip10MasterKey(seed));
}

// PKCS#8 DER wrapper for a raw 32-byte ed25519 private key (RFC 8410): SEQUENCE { INTEGER 0,
// SEQUENCE { OID 1.3.101.112 }, OCTET STRING { OCTET STRING <32 bytes> } }.
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The raw 32-byte ed25519 public key of a raw 32-byte private key (seed), via node:crypto. */
export function ed25519PublicKey(privateKey: Uint8Array): Buffer {
  if (privateKey.length !== 32) throw new RangeError('an ed25519 private key is 32 bytes');
  const key = crypto.createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, privateKey]),
    format: 'der',
    type: 'pkcs8',
  });
  const jwk = crypto.createPublicKey(key).export({ format: 'jwk' });
  if (!jwk.x) throw new Error('node:crypto did not export an ed25519 public key');
  return Buffer.from(jwk.x, 'base64url');
}

export function orderAccountPath(orderIndex: number): string {
  return `m/44'/${KADENA_COIN_TYPE}'/${orderIndex}'`;
}

/** The payment account of order number `orderIndex` (a non-negative integer below 2^31, e.g. the order's database id). */
export function deriveOrderPaymentAccount(seed: Uint8Array, orderIndex: number): PaymentAccount {
  const key = slip10Derive(seed, [44, KADENA_COIN_TYPE, orderIndex]);
  const publicKeyHex = ed25519PublicKey(key.privateKey).toString('hex');
  return { publicKeyHex, account: `k:${publicKeyHex}`, path: orderAccountPath(orderIndex) };
}

/** The private key of an order account, for sweeping its funds (never leaves the server). */
export function deriveOrderPrivateKey(seed: Uint8Array, orderIndex: number): Buffer {
  return slip10Derive(seed, [44, KADENA_COIN_TYPE, orderIndex]).privateKey;
}

/** `k:` followed by 64 lower-case hex characters. */
export function isKAccount(account: string): boolean {
  return /^k:[0-9a-f]{64}$/.test(account);
}
