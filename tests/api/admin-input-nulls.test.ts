// GraphQL lets a client send null for any optional input field; the engine takes null only where it means
// something (no sale price, unlimited downloads, a top-level category, a coupon that never expires). A
// null anywhere else is refused by the admin API with the field's name, and nothing is written. The enum
// values the admin API takes reach the engine as it spells them, and adminCoupon finds a coupon by id or
// by code, never by both or neither.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startAdminEngine, type AdminTestEngine } from './admin-helpers.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

let t: AdminTestEngine;
beforeAll(async () => {
  t = await startAdminEngine();
});
afterAll(async () => {
  await t?.close();
});

const refused = (field: string) => ({
  message: `${field} cannot be null: leave it out instead.`,
  code: 'BAD_USER_INPUT',
});
const product = async (id: number) => (await t.ok('adminProduct', { id })).adminProduct;

describe('products', () => {
  let id: number;
  beforeAll(async () => {
    id = (
      await t.ok('adminCreateProduct', {
        input: {
          name: 'Null Probe',
          sku: 'NULL-PROBE',
          regularPriceCents: 4900,
          salePriceCents: 3900,
          manageStock: true,
          stockQuantity: 5,
          lowStockAmount: 2,
          downloadLimit: 3,
          description: 'Stored text.',
        },
      })
    ).adminCreateProduct.id;
  });

  it('refuses a null name, type, flag or list by name and keeps the product as it was', async () => {
    const before = await product(id);
    expect(await t.fails('adminUpdateProduct', { id, input: { name: null, description: 'Changed.' } })).toEqual(
      refused('name'),
    );
    expect(await t.fails('adminUpdateProduct', { id, input: { status: null } })).toEqual(refused('status'));
    expect(await t.fails('adminUpdateProduct', { id, input: { featured: null } })).toEqual(refused('featured'));
    expect(await t.fails('adminUpdateProduct', { id, input: { categoryIds: null } })).toEqual(refused('categoryIds'));
    expect(
      await t.fails('adminUpdateProduct', {
        id,
        input: { attributes: [{ name: 'Colour', options: ['black'], visible: null }] },
      }),
    ).toEqual(refused('attributes[0].visible'));
    expect(
      await t.fails('adminCreateProduct', { input: { name: 'Other', type: null, regularPriceCents: 100 } }),
    ).toEqual(refused('type'));
    expect(await product(id)).toEqual(before);
  });

  it('takes null where it means something: no sale, unlimited downloads, no low-stock amount', async () => {
    const p = (
      await t.ok('adminUpdateProduct', {
        id,
        input: { salePriceCents: null, downloadLimit: null, lowStockAmount: null, name: 'Null Probe 2' },
      })
    ).adminUpdateProduct;
    expect(p).toMatchObject({
      name: 'Null Probe 2',
      regularPriceCents: 4900,
      salePriceCents: null,
      onSale: false,
      downloadLimit: null,
      lowStockAmount: null,
    });
  });

  it('refuses a null stock setting or regular price and keeps stock and price', async () => {
    const before = await product(id);
    expect(await t.fails('adminSetStock', { id, input: { manageStock: null, stockQuantity: 9 } })).toEqual(
      refused('manageStock'),
    );
    expect(await t.fails('adminSetStock', { id, input: { backorders: null } })).toEqual(refused('backorders'));
    expect(await t.fails('adminSetPrice', { id, input: { regularPriceCents: null } })).toEqual(
      refused('regularPriceCents'),
    );
    expect(await product(id)).toEqual(before);
    // Stock enums reach the engine in its own spelling.
    const r = (await t.ok('adminSetStock', { id, input: { backorders: 'NOTIFY' } })).adminSetStock;
    expect(r.product).toMatchObject({ backorders: 'NOTIFY', stockQuantity: 5 });
  });

  it('refuses a null regular price for a variable product too, which has no price of its own', async () => {
    const variable = (
      await t.ok('adminCreateProduct', {
        input: {
          name: 'Null Probe Variable',
          type: 'VARIABLE',
          attributes: [{ name: 'Size', options: ['s', 'm'], variation: true }],
        },
      })
    ).adminCreateProduct;
    expect(await t.fails('adminSetPrice', { id: variable.id, input: { regularPriceCents: null } })).toEqual(
      refused('regularPriceCents'),
    );
  });
});

describe('variations', () => {
  it('refuses a null SKU, attribute list or regular price and writes no variation', async () => {
    const p = (
      await t.ok('adminCreateProduct', {
        input: {
          name: 'Null Probe Tee',
          type: 'VARIABLE',
          attributes: [{ name: 'Size', options: ['s', 'm'], variation: true }],
        },
      })
    ).adminCreateProduct;
    expect(
      await t.fails('adminCreateVariation', {
        productId: p.id,
        input: { sku: null, attributes: [{ name: 'Size', value: 's' }], regularPriceCents: 1500 },
      }),
    ).toEqual(refused('sku'));
    expect(
      await t.fails('adminCreateVariation', {
        productId: p.id,
        input: { sku: 'NPT-S', attributes: null, regularPriceCents: 1500 },
      }),
    ).toEqual(refused('attributes'));
    expect((await product(p.id)).variations).toEqual([]);

    const v = (
      await t.ok('adminCreateVariation', {
        productId: p.id,
        input: {
          sku: 'NPT-S',
          attributes: [{ name: 'Size', value: 's' }],
          regularPriceCents: 1500,
          salePriceCents: 1200,
        },
      })
    ).adminCreateVariation;
    expect(await t.fails('adminUpdateVariation', { id: v.id, input: { regularPriceCents: null } })).toEqual(
      refused('regularPriceCents'),
    );
    // A null sale price ends the sale.
    const ended = (await t.ok('adminUpdateVariation', { id: v.id, input: { salePriceCents: null } }))
      .adminUpdateVariation;
    expect(ended).toMatchObject({ sku: 'NPT-S', regularPriceCents: 1500, salePriceCents: null });
  });
});

describe('categories', () => {
  it('refuses a null name or slug; a null parent is a top-level category', async () => {
    expect(await t.fails('adminCreateCategory', { input: { name: null } })).toEqual(refused('name'));
    const c = (await t.ok('adminCreateCategory', { input: { name: 'Null Probes', parentId: null } }))
      .adminCreateCategory;
    expect(c).toMatchObject({ name: 'Null Probes', slug: 'null-probes', parentId: null });
    expect(await t.fails('adminUpdateCategory', { id: c.id, input: { slug: null } })).toEqual(refused('slug'));
    const all = (await t.ok('adminCategories')).adminCategories as { id: number; slug: string }[];
    expect(all.find((x) => x.id === c.id)?.slug).toBe('null-probes');
  });
});

describe('coupons', () => {
  it('refuses a null code, type or amount; a null expiry or limit means none', async () => {
    expect(await t.fails('adminCreateCoupon', { input: { code: null, amountCents: 100 } })).toEqual(refused('code'));
    const c = (
      await t.ok('adminCreateCoupon', {
        input: { code: 'Null-Probe', discountType: 'FIXED_CART', amountCents: 300, expiresAt: null, usageLimit: null },
      })
    ).adminCreateCoupon;
    expect(c).toMatchObject({ code: 'null-probe', discountType: 'FIXED_CART', expiresAt: null, usageLimit: null });
    expect(await t.fails('adminUpdateCoupon', { id: c.id, input: { discountType: null } })).toEqual(
      refused('discountType'),
    );
    expect(await t.fails('adminUpdateCoupon', { id: c.id, input: { amountCents: null } })).toEqual(
      refused('amountCents'),
    );
    expect((await t.ok('adminCoupon', { id: c.id })).adminCoupon).toMatchObject({
      discountType: 'FIXED_CART',
      amountCents: 300,
    });
  });

  it('finds a coupon by id or by code, and refuses both or neither', async () => {
    const c = (
      await t.ok('adminCreateCoupon', { input: { code: 'find-me', discountType: 'PERCENT', amountCents: 500 } })
    ).adminCreateCoupon;
    expect((await t.ok('adminCoupon', { id: c.id })).adminCoupon).toMatchObject({ code: 'find-me' });
    expect((await t.ok('adminCoupon', { code: 'FIND-ME' })).adminCoupon).toMatchObject({ id: c.id });
    expect((await t.ok('adminCoupon', { code: 'no-such-coupon' })).adminCoupon).toBeNull();
    for (const variables of [{}, { id: c.id, code: 'find-me' }, { id: null, code: null }])
      expect(await t.fails('adminCoupon', variables)).toEqual({
        message: 'Give either id or code.',
        code: 'BAD_USER_INPUT',
      });
  });
});
