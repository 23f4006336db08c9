/**
 * The self-hosted bot check (ALTCHA, https://altcha.org): this server issues a signed proof-of-work
 * challenge, the visitor's browser finds its answer (a few seconds of PBKDF2 in a Web Worker, while the
 * visitor types), and the form sends the answer back with the message. No third party is asked and no
 * cookie is set.
 *
 * Challenges are made in ALTCHA's deterministic mode (altcha-lib): the server picks the answer (a counter
 * between half of ALTCHA_MAX_COUNTER and ALTCHA_MAX_COUNTER), derives its key once, and signs both the
 * challenge and that key with keys derived from one secret. Checking an answer is then two HMACs, so
 * forged answers cost the server nothing; the answer's nonce is recorded only after it checked out.
 *
 * Each challenge is accepted once: its nonce goes into the rate-limit table (bucket 'altcha:solved',
 * limit 1) when a message passes with it. That table is in the database, so with PostgreSQL every engine
 * process sees the others' used answers. A row is kept for ALTCHA_MAX_TTL_SECONDS, the longest any
 * challenge can live, so an answer cannot come back after its record is gone while the challenge is still
 * valid, whatever the TTL setting was when the challenge was issued.
 */
import crypto from 'node:crypto';
import { createChallenge, randomInt, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { z } from 'zod';
import type { RateLimiter } from '../rate-limit/index.ts';
import { ALTCHA_MAX_TTL_SECONDS, type AltchaSettings } from './settings.ts';
import type { BotCheckResult } from './verify.ts';

/** Native in every browser's SubtleCrypto and in node:crypto. */
export const ALTCHA_ALGORITHM = 'PBKDF2/SHA-256';

/** Where the contact form's widget fetches a challenge (src/pages/api/altcha/challenge.ts). */
export const ALTCHA_CHALLENGE_PATH = '/api/altcha/challenge';

/** An answer is a few hundred bytes of base64; anything far longer is not one. */
const MAX_PAYLOAD_LENGTH = 8192;

export type AltchaKeys = {
  /** Signs the challenge's parameters (nonce, salt, cost, expiry …). */
  challenge: string;
  /** Signs the key the right answer derives, so checking an answer needs no PBKDF2. */
  solution: string;
};

/** The two signing keys, derived from one secret (ALTCHA_HMAC_KEY, or the session secret) with HKDF. */
export function altchaKeys(secret: string): AltchaKeys {
  const derive = (purpose: string) =>
    Buffer.from(crypto.hkdfSync('sha256', secret, 'meshfront-altcha', purpose, 32)).toString('hex');
  return { challenge: derive('challenge-signature'), solution: derive('solution-signature') };
}

const hex = (max: number) =>
  z
    .string()
    .regex(/^(?:[0-9a-f]{2})+$/)
    .max(max);

// The parameters stay exactly as sent (loose object): their signature covers every key.
const payloadSchema = z.object({
  challenge: z.object({
    parameters: z.looseObject({
      algorithm: z.literal(ALTCHA_ALGORITHM),
      nonce: hex(128),
      salt: hex(128),
      cost: z.number().int().positive(),
      keyLength: z.number().int().positive().max(64),
      keyPrefix: hex(128),
      keySignature: hex(256).optional(),
      expiresAt: z.number().positive(),
    }),
    signature: hex(256),
  }),
  solution: z.object({
    counter: z.number().int().min(0),
    derivedKey: hex(256),
    time: z.number().optional(),
  }),
});

function fail(reason: Extract<BotCheckResult, { ok: false }>['reason'], detail: string): BotCheckResult {
  return { ok: false, reason, detail, errorCodes: [] };
}

function decodePayload(payload: string): z.infer<typeof payloadSchema> | null {
  try {
    const parsed = payloadSchema.safeParse(JSON.parse(Buffer.from(payload, 'base64').toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export type AltchaChallengesOptions = {
  /** Answers are recorded here once they pass (the database-backed limiter, shared by every process). */
  limiter: RateLimiter;
  /** The clock challenges are issued by (tests issue challenges that are already past their expiry). */
  now?: () => number;
};

export class AltchaChallenges {
  private readonly limiter: RateLimiter;
  private readonly now: () => number;

  constructor(
    private readonly settings: AltchaSettings,
    private readonly keys: AltchaKeys,
    options: AltchaChallengesOptions,
  ) {
    this.limiter = options.limiter;
    this.now = options.now ?? Date.now;
  }

  /** A new signed challenge, as the widget expects it from its challenge URL. */
  create(): Promise<Challenge> {
    const max = this.settings.maxCounter;
    return createChallenge({
      algorithm: ALTCHA_ALGORITHM,
      cost: this.settings.cost,
      counter: randomInt(max, Math.ceil(max / 2)),
      deriveKey,
      expiresAt: new Date(this.now() + this.settings.ttlSeconds * 1000),
      hmacSignatureSecret: this.keys.challenge,
      hmacKeySignatureSecret: this.keys.solution,
    });
  }

  /**
   * Checks the widget's payload (base64 JSON {challenge, solution}) and records it as used. Every outcome
   * is an answer, never an exception: missing-token, rejected (not ours, altered, or a wrong answer),
   * expired, or replayed (this answer was already accepted once).
   */
  async verify(payload: unknown): Promise<BotCheckResult> {
    if (typeof payload !== 'string' || payload.trim() === '') return fail('missing-token', 'no ALTCHA answer was sent');
    if (payload.length > MAX_PAYLOAD_LENGTH)
      return fail('missing-token', 'the ALTCHA answer is too long to be genuine');
    const decoded = decodePayload(payload);
    if (!decoded) return fail('rejected', 'the ALTCHA answer is not a PBKDF2/SHA-256 challenge and solution');
    let result: Awaited<ReturnType<typeof verifySolution>>;
    try {
      result = await verifySolution({
        challenge: decoded.challenge as Challenge,
        solution: decoded.solution as Solution,
        deriveKey,
        hmacSignatureSecret: this.keys.challenge,
        hmacKeySignatureSecret: this.keys.solution,
      });
    } catch (error) {
      return fail('rejected', `the ALTCHA answer could not be checked: ${(error as Error).message}`);
    }
    if (result.expired) return fail('expired', 'the ALTCHA challenge has expired');
    if (result.invalidSignature)
      return fail('rejected', 'the ALTCHA challenge was not issued by this shop (bad signature)');
    if (!result.verified) return fail('rejected', 'the ALTCHA answer is wrong');
    const first = await this.limiter.consume({
      bucket: 'altcha:solved',
      key: decoded.challenge.parameters.nonce,
      limit: 1,
      windowSeconds: ALTCHA_MAX_TTL_SECONDS,
    });
    if (!first.allowed) return fail('replayed', 'this ALTCHA answer was already used');
    return { ok: true, score: null, skipped: false };
  }
}
