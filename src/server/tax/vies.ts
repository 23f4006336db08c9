/**
 * The EU Commission's VIES service, REST flavour: `POST <VIES_URL>` with JSON `{ countryCode, vatNumber }`
 * (the prefix — EL for Greece — and the number without it) answers `{ countryCode, vatNumber, requestDate,
 * valid, requestIdentifier, name, address, … }`, or on a failure `{ actionSucceed: false, errorWrappers:
 * [{ error, message }] }` (MS_UNAVAILABLE, TIMEOUT, SERVICE_UNAVAILABLE, MS_MAX_CONCURRENT_REQ, …), with
 * HTTP 200 as often as not. Only `valid: true` / `valid: false` for the number asked about is an answer;
 * every error, a timeout, a refused connection or a reply that does not fit means VIES could not check it
 * and never that the number is wrong. INVALID_INPUT is VIES refusing the number itself: an answer.
 */

export type ViesAnswer =
  | {
      outcome: 'valid' | 'invalid';
      /** The trader's name and address where the member state discloses them (Germany does not). */
      name: string | null;
      address: string | null;
      requestDate: string | null;
      /** VIES's consultation number, when one was issued. */
      requestIdentifier: string | null;
    }
  /** `reason` is a short code for the operator (never a personal detail). */
  | { outcome: 'unavailable'; reason: string };

/** A VIES reply is a few hundred bytes; anything much larger is not one. */
const MAX_REPLY_BYTES = 64 * 1024;

/** VIES writes "---" where a member state discloses nothing. */
const disclosed = (value: unknown): string | null => {
  if (typeof value !== 'string') return null;
  const text = value.replace(/\s+/g, ' ').trim();
  return text && text !== '---' ? text.slice(0, 500) : null;
};

export async function askVies(
  url: string,
  query: { prefix: string; number: string },
  timeoutMs: number,
  fetchImpl: typeof fetch = fetch,
): Promise<ViesAnswer> {
  let status: number;
  let text: string;
  try {
    const response = await fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ countryCode: query.prefix, vatNumber: query.number }),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    status = response.status;
    text = await response.text();
  } catch (err) {
    const name = (err as Error).name;
    return { outcome: 'unavailable', reason: name === 'TimeoutError' || name === 'AbortError' ? 'TIMEOUT' : 'NETWORK' };
  }
  if (text.length > MAX_REPLY_BYTES) return { outcome: 'unavailable', reason: 'MALFORMED_REPLY' };
  let body: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    body = parsed as Record<string, unknown>;
  } catch {
    return { outcome: 'unavailable', reason: `HTTP_${status}` };
  }
  const errors = body.errorWrappers;
  if (Array.isArray(errors) && errors.length) {
    const first = errors[0] as { error?: unknown } | null;
    const code = typeof first?.error === 'string' ? first.error.replace(/[^A-Z_]/g, '').slice(0, 40) : 'UNKNOWN';
    if (code === 'INVALID_INPUT')
      return { outcome: 'invalid', name: null, address: null, requestDate: null, requestIdentifier: null };
    return { outcome: 'unavailable', reason: code || 'UNKNOWN' };
  }
  // Some VIES front ends report a member state's failure in `userError` beside `valid: false`.
  const userError = typeof body.userError === 'string' ? body.userError : null;
  if (userError && userError !== 'VALID' && userError !== 'INVALID')
    return { outcome: 'unavailable', reason: userError.replace(/[^A-Z_]/g, '').slice(0, 40) || 'UNKNOWN' };
  if (status !== 200 || typeof body.valid !== 'boolean') return { outcome: 'unavailable', reason: `HTTP_${status}` };
  // An answer about another number than the one asked about is no answer.
  const answeredNumber = typeof body.vatNumber === 'string' ? body.vatNumber.replace(/\s/g, '').toUpperCase() : null;
  if (
    (typeof body.countryCode === 'string' && body.countryCode.toUpperCase() !== query.prefix) ||
    (answeredNumber !== null && answeredNumber !== query.number)
  )
    return { outcome: 'unavailable', reason: 'MISMATCHED_REPLY' };
  return {
    outcome: body.valid ? 'valid' : 'invalid',
    name: disclosed(body.name),
    address: disclosed(body.address),
    requestDate: typeof body.requestDate === 'string' ? body.requestDate.slice(0, 40) : null,
    requestIdentifier: disclosed(body.requestIdentifier),
  };
}
