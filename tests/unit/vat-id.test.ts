// VAT IDs: cleaning and the per-country format check (src/server/tax/vat-id.ts, jsvat), the VIES REST
// client's reading of answers and failures (vies.ts, with a fake fetch), the checker's reuse of a fresh
// confirmation (vat-check.ts), and the storefront's quick check (src/lib/vat-id.ts).
import { describe, expect, it } from 'vitest';
import { asksForVatId, vatIdErrorKey, vatIdProblem } from '../../src/lib/vat-id.ts';
import { VatIdChecker } from '../../src/server/tax/vat-check.ts';
import { parseVatId, VatIdError } from '../../src/server/tax/vat-id.ts';
import { askVies } from '../../src/server/tax/vies.ts';
import { readVatSettings } from '../../src/server/tax/settings.ts';

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof VatIdError ? err.code : String(err);
  }
  return null;
};

describe('parseVatId', () => {
  it('cleans what people type and keeps the prefix, adding the billing country’s when missing', () => {
    expect(parseVatId(' fr 40-303.265.045 ', 'FR')).toEqual({
      vatId: 'FR40303265045',
      country: 'FR',
      prefix: 'FR',
      number: '40303265045',
    });
    expect(parseVatId('136695976', 'DE').vatId).toBe('DE136695976');
    expect(parseVatId('ATU13585627', '').country).toBe('AT');
  });

  it('knows Greece by EL, typed as EL or GR', () => {
    expect(parseVatId('EL094259216', 'GR')).toMatchObject({ vatId: 'EL094259216', country: 'GR', prefix: 'EL' });
    expect(parseVatId('GR094259216', 'GR').vatId).toBe('EL094259216');
    expect(parseVatId('094259216', 'GR').vatId).toBe('EL094259216');
  });

  it('refuses wrong check digits, another country’s number and billing countries outside the EU', () => {
    expect(codeOf(() => parseVatId('DE136695975', 'DE'))).toBe('VAT_ID_INVALID');
    expect(codeOf(() => parseVatId('FR12345678901', 'FR'))).toBe('VAT_ID_INVALID');
    expect(codeOf(() => parseVatId('', 'FR'))).toBe('VAT_ID_INVALID');
    expect(codeOf(() => parseVatId('DE136695976', 'FR'))).toBe('VAT_ID_COUNTRY_MISMATCH');
    expect(codeOf(() => parseVatId('CHE116281710', 'CH'))).toBe('VAT_ID_NOT_EU');
    expect(codeOf(() => parseVatId('123456789', ''))).toBe('VAT_ID_INVALID');
  });
});

/** A fetch that answers every request with `status` and `body` (or throws `error`). */
function fakeFetch(answer: { status?: number; body?: unknown; error?: Error }, seen: RequestInit[] = []): typeof fetch {
  return (async (_url: unknown, init?: RequestInit) => {
    seen.push(init ?? {});
    if (answer.error) throw answer.error;
    return new Response(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body), {
      status: answer.status ?? 200,
    });
  }) as typeof fetch;
}

const Q = { prefix: 'FR', number: '40303265045' };

describe('askVies', () => {
  it('posts the prefix and the number apart as JSON and reads a confirmation', async () => {
    const seen: RequestInit[] = [];
    const answer = await askVies(
      'http://vies.test/check-vat-number',
      Q,
      1000,
      fakeFetch(
        {
          body: {
            countryCode: 'FR',
            vatNumber: '40303265045',
            requestDate: '2026-11-20T10:00:00.000Z',
            valid: true,
            requestIdentifier: 'WAPIAAAAW0001',
            name: 'SA SODIMAS',
            address: '11 RUE AMPERE\n26600 PONT DE L ISERE',
          },
        },
        seen,
      ),
    );
    expect(JSON.parse(String(seen[0]!.body))).toEqual({ countryCode: 'FR', vatNumber: '40303265045' });
    expect(seen[0]!.method).toBe('POST');
    expect(answer).toEqual({
      outcome: 'valid',
      name: 'SA SODIMAS',
      address: '11 RUE AMPERE 26600 PONT DE L ISERE',
      requestDate: '2026-11-20T10:00:00.000Z',
      requestIdentifier: 'WAPIAAAAW0001',
    });
  });

  it('reads valid: false as invalid, and "---" as nothing disclosed', async () => {
    const answer = await askVies(
      'u',
      Q,
      1000,
      fakeFetch({ body: { countryCode: 'FR', vatNumber: '40303265045', valid: false, name: '---', address: '---' } }),
    );
    expect(answer).toMatchObject({ outcome: 'invalid', name: null, address: null });
    expect(
      (await askVies('u', Q, 1000, fakeFetch({ status: 400, body: { errorWrappers: [{ error: 'INVALID_INPUT' }] } })))
        .outcome,
    ).toBe('invalid');
  });

  it('never reads a failure as "not valid": errors, timeouts, other numbers and garbage are unavailable', async () => {
    const reason = async (answer: Parameters<typeof fakeFetch>[0]) => {
      const a = await askVies('u', Q, 1000, fakeFetch(answer));
      return a.outcome === 'unavailable' ? a.reason : a.outcome;
    };
    expect(await reason({ body: { actionSucceed: false, errorWrappers: [{ error: 'MS_UNAVAILABLE' }] } })).toBe(
      'MS_UNAVAILABLE',
    );
    expect(await reason({ body: { valid: false, userError: 'MS_MAX_CONCURRENT_REQ' } })).toBe('MS_MAX_CONCURRENT_REQ');
    expect(await reason({ status: 503, body: '<html>down</html>' })).toBe('HTTP_503');
    expect(await reason({ status: 500, body: { valid: true } })).toBe('HTTP_500');
    expect(await reason({ body: { countryCode: 'FR', vatNumber: '83404833048', valid: true } })).toBe(
      'MISMATCHED_REPLY',
    );
    const timeout = Object.assign(new Error('timed out'), { name: 'TimeoutError' });
    expect(await reason({ error: timeout })).toBe('TIMEOUT');
    expect(await reason({ error: new TypeError('fetch failed') })).toBe('NETWORK');
  });
});

describe('VatIdChecker', () => {
  const settings = { viesUrl: 'http://vies.test/check-vat-number', viesTimeoutMs: 1000, recheckMs: 3_600_000 };
  const valid = { body: { countryCode: 'FR', vatNumber: '40303265045', valid: true, name: 'SA SODIMAS' } };

  it('does not ask VIES again about a number it confirmed within the recheck time', async () => {
    const seen: RequestInit[] = [];
    let now = Date.parse('2026-11-20T10:00:00Z');
    const checker = new VatIdChecker(settings, { fetch: fakeFetch(valid, seen), now: () => now, log: () => {} });
    const first = await checker.check('FR40303265045', 'FR');
    expect(first).toMatchObject({ status: 'valid', vatId: 'FR40303265045', name: 'SA SODIMAS' });
    expect(await checker.check('FR 40303265045', 'FR', first)).toBe(first);
    now += 3_600_001;
    await checker.check('FR40303265045', 'FR', first);
    expect(seen.length).toBe(2);
  });

  it('takes a well-formed number as unverified when VIES cannot answer (or is off), logging no VAT ID', async () => {
    const logged: string[] = [];
    const checker = new VatIdChecker(settings, {
      fetch: fakeFetch({ body: { errorWrappers: [{ error: 'SERVICE_UNAVAILABLE' }] } }),
      log: (m) => logged.push(m),
    });
    expect(await checker.check('FR40303265045', 'FR')).toMatchObject({
      status: 'unverified',
      reason: 'SERVICE_UNAVAILABLE',
    });
    expect(logged.join('\n')).not.toContain('40303265045');
    const off = new VatIdChecker({ ...settings, viesUrl: null });
    expect(await off.check('FR40303265045', 'FR')).toMatchObject({ status: 'unverified', reason: 'OFF' });
  });

  it('keeps a check made moments ago, even an unverified one, when asked to (the checkout: the price shown stays)', async () => {
    const seen: RequestInit[] = [];
    let now = Date.parse('2026-11-20T10:00:00Z');
    const down = new VatIdChecker(settings, {
      fetch: fakeFetch({ body: { errorWrappers: [{ error: 'TIMEOUT' }] } }, seen),
      now: () => now,
      log: () => {},
    });
    const first = await down.check('FR40303265045', 'FR');
    expect(first.status).toBe('unverified');
    expect(await down.check('FR40303265045', 'FR', first, { keepRecentMs: 60_000 })).toBe(first);
    expect(seen.length).toBe(1);
    await down.check('FR40303265045', 'FR', first);
    expect(seen.length).toBe(2);
    now += 60_001;
    await down.check('FR40303265045', 'FR', first, { keepRecentMs: 60_000 });
    expect(seen.length).toBe(3);
  });

  it('refuses a number VIES says is not valid', async () => {
    const checker = new VatIdChecker(settings, {
      fetch: fakeFetch({ body: { countryCode: 'FR', vatNumber: '83404833048', valid: false } }),
    });
    await expect(checker.check('FR83404833048', 'FR')).rejects.toMatchObject({ code: 'VAT_ID_REJECTED' });
  });

  it('reads its settings: VIES off, a URL, a timeout', () => {
    expect(readVatSettings({})).toMatchObject({ viesTimeoutMs: 5000, recheckMs: 24 * 3_600_000 });
    expect(readVatSettings({ VIES_URL: 'off' }).viesUrl).toBeNull();
    expect(() => readVatSettings({ VIES_URL: 'ftp://x' })).toThrow(/VIES_URL/);
    expect(() => readVatSettings({ VIES_TIMEOUT_MS: '5' })).toThrow(/VIES_TIMEOUT_MS/);
  });
});

describe('the storefront’s quick check', () => {
  it('asks for a VAT ID in EU countries only', () => {
    expect(asksForVatId('FR')).toBe(true);
    expect(asksForVatId('GR')).toBe(true);
    expect(asksForVatId('CH')).toBe(false);
  });

  it('says what is wrong in a message key, or nothing when the engine may check it', () => {
    expect(vatIdProblem('', 'FR')).toBeNull();
    expect(vatIdProblem('FR 40 303 265 045', 'FR')).toBeNull();
    expect(vatIdProblem('40303265045', 'FR')).toBeNull();
    expect(vatIdProblem('GR094259216', 'GR')).toBeNull();
    expect(vatIdProblem('DE136695976', 'FR')).toBe('checkout.error.vatIdCountry');
    expect(vatIdProblem('FR4', 'FR')).toBe('checkout.error.vatIdInvalid');
    expect(vatIdProblem('CHE116281710', 'CH')).toBe('checkout.error.vatIdNotEu');
  });

  it('turns the engine’s refusal codes into message keys', () => {
    expect(vatIdErrorKey({ errors: [{ message: 'x', extensions: { code: 'VAT_ID_REJECTED' } }] })).toBe(
      'checkout.error.vatIdRejected',
    );
    expect(vatIdErrorKey({ errors: [{ message: 'x', extensions: { code: 'BAD_USER_INPUT' } }] })).toBeNull();
    expect(vatIdErrorKey(new Error('x'))).toBeNull();
  });
});
