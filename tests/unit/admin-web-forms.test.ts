/**
 * The admin pages' form handling (src/server/admin/web): typed fields with one message per field,
 * euros typed by operators becoming cents, the price/stock, coupon and order-action rules, the paths an
 * action may redirect to, the session cookie's shape, and /admin never being sent to a locale.
 */
import { describe, expect, it } from 'vitest';
import { FormFields, FormReadError, readForm } from '../../src/server/admin/web/forms.ts';
import { productPriceStockInput, variationPriceStockInput } from '../../src/server/admin/web/product-form.ts';
import { couponInput, couponValues } from '../../src/server/admin/web/coupon-form.ts';
import { allowedMoves } from '../../src/server/admin/web/order-actions.ts';
import { isHttps, safeAdminPath } from '../../src/server/admin/web/page.ts';
import { readSessionCookie } from '../../src/server/admin/web/session.ts';
import { couponAmount } from '../../src/server/admin/web/format.ts';
import { localeRedirect } from '../../src/lib/http/locale-rule.ts';

const fields = (o: Record<string, string>) => new FormFields(new URLSearchParams(o));

describe('form fields', () => {
  it('reads euros as cents and names the field when it is not an amount', () => {
    const f = fields({ a: '12.5', b: '€ 3', c: '1,50', d: '-2', e: '0.001' });
    expect(f.money('a', 'A')).toBe(1250);
    expect(f.money('b', 'B')).toBe(300);
    expect(f.money('c', 'C')).toBeUndefined();
    expect(f.money('d', 'D')).toBeUndefined();
    expect(f.money('e', 'E')).toBeUndefined();
    expect(f.money('missing', 'Missing')).toBeNull();
    expect(f.money('missing2', 'Price', { required: true })).toBeUndefined();
    expect(f.errors).toEqual({
      c: 'C must be an amount in euros, like 12 or 12.50.',
      d: 'D must be an amount in euros, like 12 or 12.50.',
      e: 'E must be an amount in euros, like 12 or 12.50.',
      missing2: 'Price is required.',
    });
    expect(f.ok).toBe(false);
  });

  it('checks whole numbers, dates, choices and lists', () => {
    const f = fields({
      n: '7',
      big: '99999999999',
      neg: '-3',
      day: '2026-02-30',
      ok: '2026-02-28',
      pick: 'NOTIFY',
      bad: 'maybe',
      slugs: 'a-b, c\nd',
      badSlugs: 'ok, Not Ok',
    });
    expect(f.int('n', 'N', { max: 10 })).toBe(7);
    expect(f.int('big', 'Big')).toBeUndefined();
    expect(f.int('neg', 'Neg')).toBeUndefined();
    expect(f.date('day', 'Day')).toBeUndefined();
    expect(f.date('ok', 'Ok')).toBe('2026-02-28');
    expect(f.choice('pick', 'Pick', ['NO', 'NOTIFY', 'YES'] as const)).toBe('NOTIFY');
    expect(f.choice('bad', 'Bad', ['NO', 'YES'] as const)).toBeUndefined();
    expect(f.list('slugs', 'Slugs', /^[a-z-]+$/)).toEqual(['a-b', 'c', 'd']);
    expect(f.list('badSlugs', 'Slugs', /^[a-z-]+$/)).toBeUndefined();
    expect(Object.keys(f.errors).sort()).toEqual(['bad', 'badSlugs', 'big', 'day', 'neg']);
    expect(f.errors.neg).toBe('Neg must be 0 or more.');
  });

  it('reads only URL-encoded forms within the size limit', async () => {
    const post = (body: string, type = 'application/x-www-form-urlencoded') =>
      new Request('http://x/admin', { method: 'POST', headers: { 'content-type': type }, body });
    expect((await readForm(post('a=1&b=%C3%A9'))).get('b')).toBe('é');
    await expect(readForm(post('{"a":1}', 'application/json'))).rejects.toBeInstanceOf(FormReadError);
    await expect(readForm(post(`a=${'x'.repeat(2000)}`), 1000)).rejects.toThrow('The form is too large.');
  });
});

describe('price and stock form', () => {
  const base = {
    regularPrice: '24.90',
    salePrice: '',
    saleFrom: '',
    saleTo: '',
    manageStock: 'on',
    stockQuantity: '40',
    lowStockAmount: '',
    backorders: 'NO',
    stockStatus: 'INSTOCK',
  };

  it('gives the product update: cents, cleared sale, tracked stock, the shop default low-stock amount', () => {
    expect(productPriceStockInput(fields(base), 'SIMPLE')).toEqual({
      regularPriceCents: 2490,
      salePriceCents: null,
      dateOnSaleFrom: null,
      dateOnSaleTo: null,
      manageStock: true,
      stockQuantity: 40,
      lowStockAmount: null,
      backorders: 'NO',
    });
  });

  it('sends the stock status instead of a quantity when stock is not tracked', () => {
    const { manageStock, ...untracked } = base;
    expect(manageStock).toBe('on');
    expect(variationPriceStockInput(fields({ ...untracked, stockStatus: 'OUTOFSTOCK' }))).toMatchObject({
      manageStock: false,
      stockStatus: 'OUTOFSTOCK',
    });
  });

  it('refuses a sale price that is not below the regular price, a sale ending before it starts, a missing quantity', () => {
    const f = fields({ ...base, salePrice: '24.90', saleFrom: '2026-05-10', saleTo: '2026-05-01', stockQuantity: '' });
    expect(productPriceStockInput(f, 'SIMPLE')).toBeNull();
    expect(f.errors).toEqual({
      salePrice: 'The sale price must be below the regular price (leave it empty for no sale).',
      saleTo: 'The sale cannot end before it starts.',
      stockQuantity: 'Stock quantity is required.',
    });
  });
});

describe('coupon form', () => {
  const base = {
    code: 'Spring-25',
    description: '',
    discountType: 'PERCENT',
    amount: '12.5',
    expiresAt: '2026-06-01',
    usageLimit: '',
    usageLimitPerUser: '1',
    minimum: '',
    maximum: '',
    productSlugs: '',
    excludedProductSlugs: '',
    categorySlugs: 'swag',
    excludedCategorySlugs: '',
    emailRestrictions: '*@example.com',
    freeShipping: 'on',
  };

  it('turns "12.5" percent into hundredths and shows it back the same way', () => {
    const input = couponInput(fields(base))!;
    expect(input).toMatchObject({
      code: 'Spring-25',
      discountType: 'PERCENT',
      amountCents: 1250,
      usageLimit: null,
      usageLimitPerUser: 1,
      categorySlugs: ['swag'],
      emailRestrictions: ['*@example.com'],
      freeShipping: true,
      individualUse: false,
    });
    expect(
      couponValues(
        {
          ...input,
          expiresAt: null,
          productSlugs: [],
          excludedProductSlugs: [],
          excludedCategorySlugs: [],
          minimumCents: null,
          maximumCents: 5000,
        },
        null,
      ),
    ).toMatchObject({ amount: '12.5', maximum: '50.00', categorySlugs: 'swag' });
    expect(couponAmount('PERCENT', 1250)).toBe('12.5%');
    expect(couponAmount('FIXED_CART', 500)).toBe('€5.00');
  });

  it('refuses more than 100 percent, a bad code and a minimum above the maximum', () => {
    const f = fields({ ...base, code: 'no spaces', amount: '120', minimum: '50', maximum: '20' });
    expect(couponInput(f)).toBeNull();
    expect(Object.keys(f.errors).sort()).toEqual(['amount', 'code', 'maximum']);
  });
});

describe('order actions offered', () => {
  it('follows the status: complete from processing or on hold, cancel before completion, refund while money is left', () => {
    expect([...allowedMoves('PROCESSING', 1000)].sort()).toEqual(['cancel', 'complete', 'hold', 'note', 'refund']);
    expect([...allowedMoves('ON_HOLD', 1000)].sort()).toEqual(['cancel', 'complete', 'note', 'processing', 'refund']);
    expect([...allowedMoves('PENDING', 1000)].sort()).toEqual(['cancel', 'hold', 'note']);
    expect([...allowedMoves('COMPLETED', 1000)].sort()).toEqual(['note', 'refund']);
    expect([...allowedMoves('COMPLETED', 0)]).toEqual(['note']);
    expect([...allowedMoves('CANCELLED', 1000)]).toEqual(['note']);
  });
});

describe('admin paths, cookies and HTTPS', () => {
  it('follows only /admin paths after a login or an action', () => {
    expect(safeAdminPath('/admin/orders?status=PROCESSING')).toBe('/admin/orders?status=PROCESSING');
    expect(safeAdminPath('/admin')).toBe('/admin');
    for (const bad of [
      'https://evil.example/admin',
      '//evil.example/admin',
      '/administrator',
      '/admin\\@evil',
      '/',
      null,
    ])
      expect(safeAdminPath(bad)).toBe('/admin');
  });

  it('reads the session cookie only in its exact shape', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
    const refresh = 'A'.repeat(43);
    expect(readSessionCookie(`x=1; meshfront_admin=${jwt}~${refresh}`)).toEqual({
      authToken: jwt,
      refreshToken: refresh,
    });
    expect(readSessionCookie(`meshfront_admin=${jwt}`)).toBeNull();
    expect(readSessionCookie(`meshfront_admin=${jwt}~${refresh}~more`)).toBeNull();
    expect(readSessionCookie(`meshfront_admin=<script>~${refresh}`)).toBeNull();
    expect(readSessionCookie(null)).toBeNull();
  });

  it('counts X-Forwarded-Proto only behind a trusted proxy', () => {
    const req = new Request('http://shop.test/admin', { headers: { 'x-forwarded-proto': 'https' } });
    expect(isHttps(req, new URL(req.url), 'false')).toBe(false);
    expect(isHttps(req, new URL(req.url), '1')).toBe(true);
    expect(isHttps(req, new URL('https://shop.test/admin'), 'false')).toBe(true);
  });

  it('never sends /admin to a language version', () => {
    for (const pathname of ['/admin', '/admin/orders/12']) {
      expect(
        localeRedirect({ method: 'GET', pathname, search: '', accept: 'text/html', acceptLanguage: 'de' }),
      ).toBeNull();
    }
  });
});
