/**
 * KDA amounts as decimal strings, computed with BigInt in units of 10^-12 KDA (the coin contract's
 * precision: `coin.transfer` enforces at most 12 decimals). Never floats.
 */

export const KDA_DECIMALS = 12;
const SCALE = 10n ** BigInt(KDA_DECIMALS);

/** Thrown for a string that is not a non-negative decimal with at most 12 fractional digits. */
export class KdaAmountError extends Error {
  override name = 'KdaAmountError';
}

/** "12.5" → 12_500_000_000_000n (units of 10^-12 KDA). Accepts "12", "12.", "0.000000000001"; refuses signs, exponents, > 12 decimals. */
export function parseKda(value: string): bigint {
  const m = /^(\d+)(?:\.(\d*))?$/.exec(value.trim());
  if (!m) throw new KdaAmountError(`not a KDA amount: ${JSON.stringify(value)}`);
  const frac = m[2] ?? '';
  if (frac.length > KDA_DECIMALS) {
    // Trailing zeros beyond the precision change nothing; real digits there cannot be a coin balance.
    if (/[1-9]/.test(frac.slice(KDA_DECIMALS)))
      throw new KdaAmountError(`more than ${KDA_DECIMALS} decimals: ${JSON.stringify(value)}`);
  }
  return BigInt(m[1]!) * SCALE + BigInt(frac.slice(0, KDA_DECIMALS).padEnd(KDA_DECIMALS, '0'));
}

/**
 * Units → Pact's decimal spelling: trailing zeros trimmed but always one fractional digit
 * (12_500_000_000_000n → "12.5", 10n * SCALE → "10.0"), so the string is a valid Pact decimal literal.
 */
export function formatKda(units: bigint): string {
  if (units < 0n) throw new KdaAmountError('negative KDA amount');
  const whole = units / SCALE;
  const frac = (units % SCALE).toString().padStart(KDA_DECIMALS, '0').replace(/0+$/, '');
  return `${whole}.${frac || '0'}`;
}

/**
 * The exact text of a JSON number as a node prints a Pact decimal ("12.5", "10", "1.0e-3", "2.5E7") →
 * units. Haskell's JSON encoder switches to exponent notation for small and large values, so exponents
 * are handled here, exactly.
 */
export function parseKdaJsonNumber(text: string): bigint {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (!m) throw new KdaAmountError(`not a JSON number: ${JSON.stringify(text)}`);
  if (m[1] === '-') throw new KdaAmountError(`negative KDA amount: ${text}`);
  const digits = BigInt(m[2]! + (m[3] ?? ''));
  // value = digits · 10^(exp − fracLen); in units: digits · 10^(exp − fracLen + 12)
  const shift = Number(m[4] ?? '0') - (m[3]?.length ?? 0) + KDA_DECIMALS;
  if (shift >= 0) return digits * 10n ** BigInt(shift);
  const divisor = 10n ** BigInt(-shift);
  if (digits % divisor !== 0n) throw new KdaAmountError(`more than ${KDA_DECIMALS} decimals: ${text}`);
  return digits / divisor;
}

/** Compare two KDA decimal strings: -1, 0 or 1. */
export function compareKda(a: string, b: string): -1 | 0 | 1 {
  const x = parseKda(a);
  const y = parseKda(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Normalise any accepted spelling to Pact's ("12.50" → "12.5", "3" → "3.0"). */
export function normalizeKda(value: string): string {
  return formatKda(parseKda(value));
}
