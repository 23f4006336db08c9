/**
 * Checking a business customer's VAT ID: its format and check digits (vat-id.ts), then VIES (vies.ts).
 * Every VIES question is a request to the EU's service that a shopper causes by typing a number, so they
 * are bounded per session and per client address (VIES_CHECKS_PER_…_PER_HOUR, counted by the shop's rate
 * limiter across processes), and a confirmation is answered from memory for VIES_RECHECK_HOURS.
 *
 * What happens when VIES does not answer (it asks the member state's own register, which is often down or
 * slow): the order is taken. A well-formed VAT ID then counts as `unverified` — the customer gets the
 * reverse charge the number entitles them to, and the order carries the flag `vat_id_unverified` for the
 * operator, who checks the number before shipping (the admin's order page shows it). Refusing the order
 * would lose a sale to an outage of a third party's service; charging VAT the business does not owe would
 * show it another price than the one it was offered. A number VIES says is not valid is refused: the
 * customer can correct it, or remove it and pay VAT.
 */
import { askVies, type ViesAnswer } from './vies.ts';
import { parseVatId, VatIdError, vatIdMessages } from './vat-id.ts';
import type { VatSettings } from './settings.ts';

/** What the shop knows about a VAT ID it accepted; kept with the session customer and copied to the order. */
export type VatCheck = {
  /** "DE136695976": prefix and number, as printed on invoices. */
  vatId: string;
  /** ISO code of the member state that issued it. */
  country: string;
  /** valid: VIES confirmed it; unverified: well-formed, but VIES could not be asked (see `reason`). */
  status: 'valid' | 'unverified';
  /** ISO 8601 time of the check. */
  checkedAt: string;
  /** Why VIES could not check it: TIMEOUT, NETWORK, MS_UNAVAILABLE, … or OFF (VIES_URL=off). */
  reason: string | null;
  /** What VIES returned about the business, where the member state discloses it. */
  name: string | null;
  address: string | null;
  requestDate: string | null;
  requestIdentifier: string | null;
};

/** The rate limiter's one call the checker needs (rate-limit/service.ts's RateLimiter has it). */
export type VatCheckLimiter = {
  consume(input: {
    bucket: string;
    key: string;
    limit: number;
    windowSeconds: number;
  }): Promise<{ allowed: boolean; retryAfterSeconds: number }>;
};

/** Who makes the engine ask VIES: the shopper's session and client address (rateLimitKeyForIp). */
export type VatCheckCaller = { session?: string | null; clientIp?: string | null };

/** What the rate limiter calls a client whose address the engine could not tell. */
const UNKNOWN_CLIENT = 'unknown';
const HOUR_SECONDS = 3600;
/** Confirmed VAT IDs answered from memory at most; the oldest go first. */
const MAX_CACHED_ANSWERS = 5000;

export type VatIdCheckerOptions = {
  fetch?: typeof fetch;
  /** Bounds the VIES questions per session and client address; without one, VIES is asked without bound. */
  limiter?: VatCheckLimiter | null;
  /** Gets operator messages; never a VAT ID or a name (a sole trader's number is personal data). */
  log?: (message: string) => void;
  now?: () => number;
};

export class VatIdChecker {
  private readonly fetchImpl: typeof fetch;
  private readonly log: (message: string) => void;
  private readonly now: () => number;
  private readonly limiter: VatCheckLimiter | null;
  /** VIES's confirmations by VAT ID, kept for VIES_RECHECK_HOURS (Map order: oldest first). */
  private readonly confirmed = new Map<string, VatCheck>();

  constructor(
    private readonly settings: VatSettings,
    options: VatIdCheckerOptions = {},
  ) {
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.log = options.log ?? ((m) => console.warn(`[meshfront] ${m}`));
    this.now = options.now ?? Date.now;
    this.limiter = options.limiter ?? null;
  }

  /** A confirmation VIES gave within VIES_RECHECK_HOURS, to anyone: the register's answer is the same. */
  private cachedConfirmation(vatId: string): VatCheck | null {
    const hit = this.confirmed.get(vatId);
    if (!hit) return null;
    if (this.now() - Date.parse(hit.checkedAt) < this.settings.recheckMs) return hit;
    this.confirmed.delete(vatId);
    return null;
  }

  private remember(check: VatCheck): void {
    if (this.settings.recheckMs <= 0) return;
    this.confirmed.delete(check.vatId);
    this.confirmed.set(check.vatId, check);
    while (this.confirmed.size > MAX_CACHED_ANSWERS) this.confirmed.delete(this.confirmed.keys().next().value!);
  }

  /**
   * Counts one VIES question against the caller's session and client address; throws VatIdError
   * VAT_ID_TOO_MANY_CHECKS once either has asked VIES_CHECKS_PER_…_PER_HOUR times within the last hour.
   */
  private async limit(caller: VatCheckCaller | undefined): Promise<void> {
    if (!this.limiter || !caller) return;
    const bounds = [
      { bucket: 'vies:session', key: caller.session, limit: this.settings.checksPerSessionPerHour ?? 10 },
      { bucket: 'vies:ip', key: caller.clientIp, limit: this.settings.checksPerIpPerHour ?? 30 },
    ];
    for (const { bucket, key, limit } of bounds) {
      if (!key || key === UNKNOWN_CLIENT) continue;
      const result = await this.limiter.consume({ bucket, key, limit, windowSeconds: HOUR_SECONDS });
      if (!result.allowed) {
        this.log(
          `VAT ID checks refused for a ${bucket === 'vies:ip' ? 'client address' : 'session'}: over ${limit} an hour`,
        );
        throw new VatIdError(
          vatIdMessages.tooManyChecks(Math.ceil(result.retryAfterSeconds / 60)),
          'VAT_ID_TOO_MANY_CHECKS',
        );
      }
    }
  }

  /**
   * Checks a VAT ID typed for a billing country. `previous` is the last check of this customer: a VAT ID
   * VIES confirmed within VIES_RECHECK_HOURS is not asked about again, nor one checked either way within
   * `keepRecentMs`. Throws VatIdError for a malformed number, one of another country, and one VIES says is
   * not valid.
   */
  async check(
    raw: string,
    billingCountry: string,
    previous?: VatCheck | null,
    options: { keepRecentMs?: number; caller?: VatCheckCaller } = {},
  ): Promise<VatCheck> {
    const id = parseVatId(raw, billingCountry);
    if (previous?.vatId === id.vatId) {
      const age = this.now() - Date.parse(previous.checkedAt);
      if ((previous.status === 'valid' && age < this.settings.recheckMs) || age < (options.keepRecentMs ?? 0))
        return previous;
    }
    const checkedAt = new Date(this.now()).toISOString();
    const base = { vatId: id.vatId, country: id.country, checkedAt };
    if (!this.settings.viesUrl)
      return {
        ...base,
        status: 'unverified',
        reason: 'OFF',
        name: null,
        address: null,
        requestDate: null,
        requestIdentifier: null,
      };
    const cached = this.cachedConfirmation(id.vatId);
    if (cached) return cached;
    await this.limit(options.caller);
    const answer: ViesAnswer = await askVies(
      this.settings.viesUrl,
      { prefix: id.prefix, number: id.number },
      this.settings.viesTimeoutMs,
      this.fetchImpl,
    );
    if (answer.outcome === 'invalid') throw new VatIdError(vatIdMessages.rejected(id.vatId), 'VAT_ID_REJECTED');
    if (answer.outcome === 'unavailable') {
      this.log(`VIES could not check a VAT ID of ${id.country} (${answer.reason}); it is taken as unverified`);
      return {
        ...base,
        status: 'unverified',
        reason: answer.reason,
        name: null,
        address: null,
        requestDate: null,
        requestIdentifier: null,
      };
    }
    const confirmed: VatCheck = {
      ...base,
      status: 'valid',
      reason: null,
      name: answer.name,
      address: answer.address,
      requestDate: answer.requestDate,
      requestIdentifier: answer.requestIdentifier,
    };
    this.remember(confirmed);
    return confirmed;
  }
}
