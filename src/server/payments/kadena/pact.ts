/**
 * Unsigned Pact commands for read-only calls to a Chainweb node's /local endpoint.
 *
 * Wire format (Pact's Command): { hash, sigs, cmd } where `cmd` is the JSON text of the payload
 * { networkId, payload: { exec: { code, data } }, signers, meta: { chainId, sender, gasLimit, gasPrice,
 * ttl, creationTime }, nonce } and `hash` is base64url (no padding) of BLAKE2b-256 over exactly those
 * bytes. The node re-hashes `cmd` and refuses a mismatch, so `cmd` is sent as the string that was hashed.
 */
import crypto from 'node:crypto';
import { blake2b256 } from './blake2b.ts';
import { isKAccount } from './addresses.ts';

export type PactCommand = { hash: string; sigs: []; cmd: string };

export type PactCommandPayload = {
  networkId: string;
  payload: { exec: { code: string; data: Record<string, unknown> } };
  signers: [];
  meta: { chainId: string; sender: string; gasLimit: number; gasPrice: number; ttl: number; creationTime: number };
  nonce: string;
};

/** base64url (no padding) of BLAKE2b-256 — Pact's hash and request-key encoding. */
export function pactHash(text: string): string {
  return Buffer.from(blake2b256(text)).toString('base64url');
}

export function buildLocalCommand(options: {
  code: string;
  networkId: string;
  chainId: string;
  /** Seconds since the epoch; the node refuses commands from the future. */
  creationTime?: number;
  nonce?: string;
  gasLimit?: number;
}): PactCommand {
  const payload: PactCommandPayload = {
    networkId: options.networkId,
    payload: { exec: { code: options.code, data: {} } },
    signers: [],
    meta: {
      chainId: options.chainId,
      sender: '',
      gasLimit: options.gasLimit ?? 1500,
      gasPrice: 1e-8,
      ttl: 600,
      // A little in the past so a node whose clock runs behind ours does not see a future command.
      creationTime: options.creationTime ?? Math.floor(Date.now() / 1000) - 30,
    },
    nonce: options.nonce ?? `meshfront:${new Date().toISOString()}:${crypto.randomBytes(4).toString('hex')}`,
  };
  const cmd = JSON.stringify(payload);
  return { hash: pactHash(cmd), sigs: [], cmd };
}

/** `(coin.get-balance "k:…")` — only k: accounts, so nothing in the string needs escaping. */
export function getBalanceCode(account: string): string {
  if (!isKAccount(account)) throw new RangeError(`not a k: account: ${JSON.stringify(account)}`);
  return `(coin.get-balance "${account}")`;
}
