/**
 * A small Chainweb node client on plain fetch: the current cut (block heights) and read-only Pact calls
 * through /local. Balances are read twice — at the tip and rewound by N blocks (`rewindDepth=N`, which
 * chainweb-node's /local supports: the command runs against the state N blocks below the tip) — so an
 * order can show "received, waiting for confirmations" before it counts the money as confirmed.
 */
import { type ServiceBreaker, ServiceUnavailableError } from '../../service-breaker.ts';
import { formatKda, parseKda, parseKdaJsonNumber } from './decimal.ts';
import { buildLocalCommand, getBalanceCode } from './pact.ts';

export class ChainwebError extends Error {
  override name = 'ChainwebError';
  constructor(
    message: string,
    readonly details: { status?: number; url?: string; body?: string; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
  }
}

export type ChainwebClientOptions = {
  /** Base URL, e.g. https://api.chainweb.com (no trailing /chainweb/…). */
  url: string;
  networkId: string;
  chainId: string;
  /** Blocks that must be mined on top of a payment before it counts as confirmed (rewindDepth). */
  confirmations: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Stops asking a node that is down for a while (service-breaker.ts); none by default. */
  breaker?: ServiceBreaker;
};

/** The node is down or overloaded (what a breaker counts): unreachable, too slow, 5xx or 429. */
export function isChainwebOutage(error: unknown): boolean {
  if (!(error instanceof ChainwebError)) return false;
  const status = error.details.status;
  return status === undefined ? error.details.url !== undefined : status >= 500 || status === 429;
}

export type PaymentProgress = {
  /** Balance at the tip, including payments in the newest block (decimal KDA string). */
  receivedUnconfirmedKda: string;
  /** Balance `confirmations` blocks below the tip. */
  receivedConfirmedKda: string;
  /** Height of the configured chain in the cut that was read. */
  height: number;
};

/** `data` keeps JSON numbers as { __rawNumber: "<exact text>" } (read decimals with pactDecimalToUnits). */
export type PactLocalResult =
  | { status: 'success'; data: unknown; raw: unknown }
  | { status: 'failure'; error: { message: string; type?: string }; raw: unknown };

/** Pact's "this account has no row in coin-table yet" errors (Pact 4 and Pact 5 wordings). */
export function isRowNotFound(message: string): boolean {
  return /row not found/i.test(message) || /No value found in table \S*coin-table/i.test(message);
}

/** chainweb-node's answer when the chain is shorter than the requested rewindDepth. */
function isNoBlockAtDepth(body: string): boolean {
  return /No block exists at the given rewind depth/i.test(body);
}

// Keep the exact text of JSON numbers: a Pact decimal must never pass through a float.
type RawNumber = { __rawNumber: string };
function parseJsonKeepingNumbers(text: string): unknown {
  return JSON.parse(text, (_key, value, context?: { source?: string }) =>
    typeof value === 'number' && context?.source !== undefined
      ? ({ __rawNumber: context.source } satisfies RawNumber)
      : value,
  );
}

/** A Pact decimal as JSON (number, {"decimal": "…"} or {"int": …}) → KDA units. */
export function pactDecimalToUnits(value: unknown): bigint {
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if ('__rawNumber' in o && typeof o.__rawNumber === 'string') return parseKdaJsonNumber(o.__rawNumber);
    if ('decimal' in o) {
      const d = o.decimal;
      if (typeof d === 'string') return parseKdaJsonNumber(d);
      return pactDecimalToUnits(d);
    }
    if ('int' in o) return pactDecimalToUnits(o.int);
  }
  if (typeof value === 'string') return parseKda(value);
  throw new ChainwebError(`unexpected Pact decimal: ${JSON.stringify(value)}`);
}

export class ChainwebClient {
  readonly base: string;
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;

  constructor(readonly options: ChainwebClientOptions) {
    this.base = `${options.url.replace(/\/+$/, '')}/chainweb/0.0/${encodeURIComponent(options.networkId)}`;
    this.fetchImpl = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  private async request(path: string, init: RequestInit = {}): Promise<{ status: number; text: string; url: string }> {
    const url = `${this.base}${path}`;
    const send = async () => {
      let response: Response;
      let text: string;
      try {
        // The time limit covers the body too: a node that stalls mid-answer is as slow as one that never answers.
        const signal = AbortSignal.timeout(this.timeoutMs);
        response = await this.fetchImpl(url, { ...init, signal });
        text = await response.text();
      } catch (cause) {
        throw new ChainwebError(`Chainweb node unreachable at ${url}: ${(cause as Error)?.message ?? cause}`, {
          url,
          cause,
        });
      }
      if (response.status >= 500 || response.status === 429)
        throw new ChainwebError(`Chainweb node answered ${response.status}`, {
          status: response.status,
          url,
          body: text.slice(0, 500),
        });
      return { status: response.status, text, url };
    };
    if (!this.options.breaker) return send();
    try {
      return await this.options.breaker.run(send);
    } catch (err) {
      if (err instanceof ServiceUnavailableError)
        throw new ChainwebError(`Chainweb node unreachable at ${url}: ${err.message}`, { url, cause: err });
      throw err;
    }
  }

  /** Height of the configured chain (and the whole cut) from GET …/cut. */
  async getCut(): Promise<{
    chainHeight: number;
    cutHeight: number;
    hashes: Record<string, { height: number; hash: string }>;
  }> {
    const { status, text, url } = await this.request('/cut', { headers: { accept: 'application/json' } });
    if (status !== 200)
      throw new ChainwebError(`Chainweb node answered ${status} for the cut`, {
        status,
        url,
        body: text.slice(0, 500),
      });
    let cut: { height?: unknown; hashes?: Record<string, { height: number; hash: string }> };
    try {
      cut = JSON.parse(text);
    } catch (cause) {
      throw new ChainwebError('Chainweb node sent a cut that is not JSON', {
        status,
        url,
        body: text.slice(0, 500),
        cause,
      });
    }
    const entry = cut.hashes?.[this.options.chainId];
    if (!entry || !Number.isSafeInteger(entry.height))
      throw new ChainwebError(`the cut has no block for chain ${this.options.chainId}`, {
        url,
        body: text.slice(0, 500),
      });
    return { chainHeight: entry.height, cutHeight: Number(cut.height), hashes: cut.hashes! };
  }

  /**
   * Run read-only Pact code through /local (no signatures, no gas charged). `rewindDepth` runs it
   * against the state that many blocks below the tip. Resolves null when the chain is not that deep yet.
   */
  async local(code: string, options: { rewindDepth?: number } = {}): Promise<PactLocalResult | null> {
    const command = buildLocalCommand({ code, networkId: this.options.networkId, chainId: this.options.chainId });
    const query = new URLSearchParams({ signatureVerification: 'false' });
    if (options.rewindDepth !== undefined) query.set('rewindDepth', String(options.rewindDepth));
    const { status, text, url } = await this.request(
      `/chain/${encodeURIComponent(this.options.chainId)}/pact/api/v1/local?${query}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(command),
      },
    );
    if (status === 400 && isNoBlockAtDepth(text)) return null;
    if (status !== 200)
      throw new ChainwebError(`Chainweb node answered ${status} to /local: ${text.slice(0, 200)}`, {
        status,
        url,
        body: text.slice(0, 1000),
      });
    let body: { result?: { status?: string; data?: unknown; error?: { message?: string; type?: string } } };
    try {
      body = parseJsonKeepingNumbers(text) as typeof body;
    } catch (cause) {
      throw new ChainwebError('Chainweb node sent a /local result that is not JSON', {
        status,
        url,
        body: text.slice(0, 500),
        cause,
      });
    }
    const result = body.result;
    if (result?.status === 'success') return { status: 'success', data: result.data, raw: body };
    if (result?.status === 'failure') {
      return {
        status: 'failure',
        error: { message: String(result.error?.message ?? 'unknown Pact error'), type: result.error?.type },
        raw: body,
      };
    }
    throw new ChainwebError('Chainweb node sent a /local answer without a result', {
      status,
      url,
      body: text.slice(0, 500),
    });
  }

  /** coin balance of a k: account as a KDA decimal string; "0.0" when the account does not exist yet (or the chain is shallower than rewindDepth). */
  async getBalance(account: string, options: { rewindDepth?: number } = {}): Promise<string> {
    const result = await this.local(getBalanceCode(account), options);
    if (result === null) return '0.0';
    if (result.status === 'failure') {
      if (isRowNotFound(result.error.message)) return '0.0';
      throw new ChainwebError(`coin.get-balance failed: ${result.error.message}`);
    }
    return formatKda(pactDecimalToUnits(result.data));
  }

  /** What an order's payment account has received, at the tip and confirmed. */
  async readPaymentProgress(account: string): Promise<PaymentProgress> {
    const [cut, unconfirmed, confirmed] = await Promise.all([
      this.getCut(),
      this.getBalance(account),
      this.getBalance(account, { rewindDepth: this.options.confirmations }),
    ]);
    return { receivedUnconfirmedKda: unconfirmed, receivedConfirmedKda: confirmed, height: cut.chainHeight };
  }
}
