/**
 * EUR → KDA quotes. The rate is a decimal string ("0.50" = 0.50 EUR per KDA); the result is a KDA
 * decimal string with at most 12 decimals, rounded UP so that paying the quoted amount always covers
 * the order total. All arithmetic is BigInt.
 */
import { formatKda, KDA_DECIMALS } from './decimal.ts';

export class RateError extends Error {
  override name = 'RateError';
}

/** A positive decimal rate as an exact fraction numerator / 10^scale. */
export type ExactRate = { numerator: bigint; scale: number };

/** "0.50" → { numerator: 50n, scale: 2 }. Refuses zero, negatives, exponents and more than 18 decimals. */
export function parseRate(value: string): ExactRate {
  const m = /^(\d+)(?:\.(\d{1,18}))?$/.exec(value.trim());
  if (!m) throw new RateError(`not a decimal rate: ${JSON.stringify(value)} (write it like "0.50")`);
  const frac = m[2] ?? '';
  const numerator = BigInt(m[1]! + frac);
  if (numerator === 0n) throw new RateError('the KDA rate must be greater than zero');
  return { numerator, scale: frac.length };
}

/**
 * EUR cents → KDA at `eurPerKda`.
 *   kda = (cents / 100) / (numerator / 10^scale) = cents · 10^scale / (100 · numerator)
 * expressed in 10^-12 units and rounded up (ceil), so 1 cent at 3 EUR/KDA is 0.003333333334 KDA.
 */
export function eurCentsToKda(amountCents: number, eurPerKda: string | ExactRate): string {
  if (!Number.isSafeInteger(amountCents) || amountCents < 0)
    throw new RateError(`amount must be a non-negative integer of cents, got ${amountCents}`);
  const rate = typeof eurPerKda === 'string' ? parseRate(eurPerKda) : eurPerKda;
  const numer = BigInt(amountCents) * 10n ** BigInt(rate.scale) * 10n ** BigInt(KDA_DECIMALS);
  const denom = 100n * rate.numerator;
  const units = (numer + denom - 1n) / denom;
  return formatKda(units);
}

/** Where the rate comes from. Only 'fixed' exists today; a market feed would implement the same shape. */
export type RateSource = {
  kind: 'fixed';
  eurPerKda: string;
  quote(amountCents: number): { amountKda: string; eurPerKda: string };
};

export function fixedRateSource(eurPerKda: string): RateSource {
  const rate = parseRate(eurPerKda);
  return {
    kind: 'fixed',
    eurPerKda,
    quote: (amountCents) => ({ amountKda: eurCentsToKda(amountCents, rate), eurPerKda }),
  };
}
