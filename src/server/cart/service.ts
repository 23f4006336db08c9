/**
 * The cart service: the session cart's mutations and its computed view. Every mutation
 * runs through the session service's `update`, i.e. under the session's lock (an advisory lock on
 * PostgreSQL, an in-process one on PGlite), re-reading the session after the lock is taken — so mutations
 * of one session are serialised across processes. The catalog snapshot is taken before the transaction (PGlite has one
 * connection: nothing may use the pool while a transaction holds it).
 */
import { stockStatusOf } from '../catalog/pricing.ts';
import { StockError } from '../catalog/stock.ts';
import type { CatalogService } from '../catalog/service.ts';
import type { CatalogSnapshot, ProductModel, VariationModel } from '../catalog/snapshot.ts';
import type { CommerceSettings } from '../shop/settings.ts';
import type { DbOrTx } from '../db/connection.ts';
import { checkCouponRules, CouponError, couponMessages, type CouponModel } from '../coupons/discounts.ts';
import type { CouponService } from '../coupons/service.ts';
import type { SessionService } from '../session/service.ts';
import {
  ADDRESS_FIELDS,
  assumedCustomer,
  cartItemKey,
  readCart,
  readCustomer,
  type Address,
  type SavedAddresses,
  type SessionCustomer,
  type StoredCart,
  type StoredCartItem,
} from './model.ts';
import { computeCart, discountLines, resolveLine, shownSubtotalCents, variationName, type CartView } from './totals.ts';
import { VatIdChecker, type VatCheck } from '../tax/vat-check.ts';
import { text, type EngineText } from '../i18n/text.ts';
import { ShopperError } from '../i18n/shopper-error.ts';

/** A refusal with a message for the shopper (WooGraphQL's wording). */
export class CartError extends ShopperError {
  override name = 'CartError';
}

export const MAX_CART_LINES = 100;

/**
 * The quantity caps (CART_MAX_LINE_QUANTITY, CART_MAX_QUANTITY) in the shopper's words; the cart refuses
 * a change past them and the checkout says the same about a cart that got there before they were set.
 */
export const quantityCapMessages = {
  line: (cap: number, name: string | EngineText) => text('cart.lineCap', { cap, name }),
  cart: (cap: number) => text('cart.cartCap', { cap }),
};

/** The first cap a cart's lines break, as the shopper's message; null when they keep to both. */
export function quantityCapProblem(
  lines: { name: string; quantity: number }[],
  caps: Pick<CommerceSettings, 'maxLineQuantity' | 'maxCartQuantity'>,
): EngineText | null {
  const over = lines.find((l) => l.quantity > caps.maxLineQuantity);
  if (over) return quantityCapMessages.line(caps.maxLineQuantity, over.name);
  if (lines.reduce((sum, l) => sum + l.quantity, 0) > caps.maxCartQuantity)
    return quantityCapMessages.cart(caps.maxCartQuantity);
  return null;
}

export type AddToCartInput = {
  productId: number;
  quantity?: number | null;
  variationId?: number | null;
  variation?: ({ attributeName: string; attributeValue?: string | null } | null)[] | null;
  extraData?: string | null;
};

/** The session's customer; `scope` (the request's session state) lets reads of one request share one session load. */
export type Who = {
  customerId: string;
  userId?: string | null;
  scope?: object;
  /** The client's rate-limit key (rateLimitKeyForIp), for the bounds on what a shopper may make the engine ask. */
  clientIp?: string;
};

const productLink = (p: ProductModel) => `<a href="/product/${p.slug}/" title="${p.name}">${p.name}</a>`;

/**
 * Refuses quantities of the changed lines (`keys`) that their stock cannot cover, counting every line that
 * draws on the same stock (a product's lines, or one variation's), as the checkout will take it.
 */
function checkStockFor(snap: CatalogSnapshot, items: StoredCartItem[], keys: string[]): void {
  for (const key of keys) {
    const item = items.find((i) => i.key === key);
    const line = item && resolveLine(snap, item);
    if (!line) continue;
    const { product, variation } = line;
    const holder = variation?.manageStock ? variation : product;
    if (!holder.manageStock || holder.backorders !== 'no') continue;
    const drawing = items.filter((i) =>
      holder === variation
        ? i.variationId === variation.id
        : i.productId === product.id &&
          (i.variationId === null || !snap.variationsById.get(i.variationId)?.manageStock),
    );
    const stock = holder.stockQuantity ?? 0;
    if (drawing.reduce((sum, i) => sum + i.quantity, 0) > stock)
      throw new StockError(holder === variation ? line.name : product.name, stock);
  }
}

/** A logged-in customer's saved addresses (the customers domain's), by user id; null without an account. */
export type SavedAddressesOf = (userId: number) => Promise<SavedAddresses | null>;

export class CartService {
  constructor(
    private readonly sessions: SessionService,
    private readonly catalog: CatalogService,
    private readonly coupons: CouponService,
    readonly settings: CommerceSettings,
    private readonly savedAddresses: SavedAddressesOf | null = null,
    /** Checks business customers' VAT IDs; without one, the format only (and every ID counts as unverified). */
    readonly vatIds: VatIdChecker = new VatIdChecker({ viesUrl: null, viesTimeoutMs: 0, recheckMs: 0 }),
  ) {}

  /** The cart as it is now (read-only: coupons that stopped being valid are left out of the totals). */
  async view(who: Who): Promise<CartView> {
    const snap = await this.catalog.snapshot();
    const [data, saved] = await Promise.all([this.loadFor(who), this.savedFor(who)]);
    const cart = readCart(data);
    const customer = this.assumed(readCustomer(data), saved);
    const valid = await this.validCoupons(snap, cart, customer, who, await this.coupons.findByCodes(cart.coupons));
    return computeCart(snap, cart, customer, valid, this.settings);
  }

  /** The customer as the cart assumes it: the session's addresses over the saved ones, the base country by default. */
  async customer(who: Who): Promise<SessionCustomer> {
    const [data, saved] = await Promise.all([this.loadFor(who), this.savedFor(who)]);
    return this.assumed(readCustomer(data), saved);
  }

  private savedFor(who: Who): Promise<SavedAddresses | null> {
    const id = Number(who.userId);
    if (!this.savedAddresses || !who.userId || !Number.isSafeInteger(id)) return Promise.resolve(null);
    return this.savedAddresses(id);
  }

  private assumed(customer: SessionCustomer, saved: SavedAddresses | null): SessionCustomer {
    return assumedCustomer(customer, saved, this.settings.baseCountry);
  }

  private loadFor(who: Who): Promise<Record<string, unknown>> {
    return who.scope ? this.sessions.loadOnce(who.scope, who.customerId) : this.sessions.load(who.customerId);
  }

  /** Coupons that still pass their rules for this cart (usage limits included). */
  private async validCoupons(
    snap: CatalogSnapshot,
    cart: StoredCart,
    customer: SessionCustomer,
    who: Who,
    list: CouponModel[],
    db?: DbOrTx,
  ): Promise<CouponModel[]> {
    if (!list.length) return [];
    const resolved = cart.items.map((i) => resolveLine(snap, i)).filter((l): l is NonNullable<typeof l> => l !== null);
    const lines = discountLines(snap, resolved);
    const shown = shownSubtotalCents(resolved, customer, this.settings);
    const out: CouponModel[] = [];
    for (const c of list) {
      try {
        checkCouponRules(c, lines, shown);
        await this.coupons.checkUsage(c, { userId: who.userId, email: customer.billing.email || null }, db);
        out.push(c);
      } catch (err) {
        if (!(err instanceof CouponError)) throw err;
      }
    }
    return out;
  }

  /**
   * Run a cart mutation under the session lock. `fn` changes `cart`/`customer` in place and returns its
   * result; afterwards coupons that stopped being valid are removed (WooCommerce's cart check) and the
   * session is saved. Returns the result and the new cart view.
   */
  async mutate<T>(
    who: Who,
    fn: (s: { cart: StoredCart; customer: SessionCustomer; snap: CatalogSnapshot; tx: DbOrTx }) => Promise<T> | T,
  ): Promise<{ result: T; view: CartView; before: CartView }> {
    const snap = await this.catalog.snapshot();
    const saved = await this.savedFor(who);
    // Besides the session save, cart mutations only read (coupons, usage counts): `atomic: false` spares
    // them a transaction of their own where the session lock is in-process (PGlite).
    return this.sessions.update(
      who.customerId,
      async (data, tx) => {
        const cart = readCart(data);
        const customer = readCustomer(data);
        const beforeCodes = [...cart.coupons];
        const beforeCoupons = await this.coupons.findByCodes(cart.coupons, tx);
        const before = computeCart(
          snap,
          structuredClone(cart),
          this.assumed(customer, saved),
          beforeCoupons,
          this.settings,
        );
        // A session saved before the offered rates were kept: what it offered is what the cart offered just now.
        cart.offeredShipping ??= before.packages[0]?.rates.map((r) => r.id) ?? [];
        const result = await fn({ cart, customer, snap, tx });
        // The same codes as before the change (most mutations): the coupons read a moment ago.
        const sameCodes =
          cart.coupons.length === beforeCodes.length && cart.coupons.every((c, i) => c === beforeCodes[i]);
        const applied = sameCodes ? beforeCoupons : await this.coupons.findByCodes(cart.coupons, tx);
        const assumed = this.assumed(customer, saved);
        const valid = await this.validCoupons(snap, cart, assumed, who, applied, tx);
        cart.coupons = valid.map((c) => c.code);
        const view = computeCart(snap, cart, assumed, valid, this.settings);
        cart.chosenShipping = view.chosenShippingMethods.length ? view.chosenShippingMethods : cart.chosenShipping;
        cart.offeredShipping = view.packages[0]?.rates.map((r) => r.id) ?? [];
        return { data: { ...data, cart, customer }, result: { result, view, before } };
      },
      { atomic: false },
    );
  }

  async addToCart(who: Who, input: AddToCartInput): Promise<{ key: string; view: CartView }> {
    const quantity = input.quantity ?? 1;
    if (!Number.isInteger(quantity) || quantity <= 0)
      throw new CartError('Failed to add cart item. Please check input.');
    const { result, view } = await this.mutate(who, ({ cart, snap }) => {
      let product = snap.productsById.get(input.productId);
      let variation: VariationModel | null = null;
      let variationId = input.variationId ?? null;
      if (!product) {
        // A variation id given as productId: WooCommerce maps it to its parent.
        const v = snap.variationsById.get(input.productId);
        if (v) {
          product = v.product;
          variationId = v.id;
        }
      }
      if (product?.status !== 'publish') throw new CartError('No product found matching the ID provided');
      if (product.type === 'external') throw new CartError(text('cart.cannotPurchase'));
      const chosen: Record<string, string> = {};
      if (product.type === 'variable') {
        const variationAttrs = product.attributes.filter((a) => a.variation);
        const nameOf = (a: (typeof variationAttrs)[number]) => (a.attribute ? a.attribute.slug : a.name);
        for (const pair of input.variation ?? []) {
          if (!pair) continue;
          const raw = pair.attributeName;
          const attr = variationAttrs.find(
            (a) => nameOf(a) === raw || nameOf(a) === `pa_${raw}` || nameOf(a).toLowerCase() === raw.toLowerCase(),
          );
          if (!attr) throw new CartError(`${raw} is not a valid attribute of the product: ${product.name}.`);
          if (pair.attributeValue) chosen[nameOf(attr)] = pair.attributeValue;
        }
        if (variationId !== null) {
          variation = snap.variationsById.get(variationId) ?? null;
          if (!variation || variation.product.id !== product.id) {
            throw new CartError(
              `The selected product isn't a variation of ${product.name}, please choose product options by visiting ${productLink(product)}.`,
            );
          }
          for (const [name, value] of Object.entries(chosen)) {
            const own = variation.attributes[name];
            if (own && own !== value) {
              const label = variationAttrs.find((a) => nameOf(a) === name)?.attribute?.name ?? name;
              throw new CartError(`Invalid value posted for ${label}`);
            }
          }
        } else {
          const matches = product.variations.filter((v) =>
            Object.entries(v.attributes).every(([k, val]) => chosen[k] === val),
          );
          if (!Object.keys(chosen).length)
            throw new CartError(`Please choose product options by visiting ${productLink(product)}.`);
          if (matches.length !== 1) throw new CartError('Please choose product options&hellip;');
          variation = matches[0]!;
        }
        for (const [k, v] of Object.entries(variation.attributes)) chosen[k] = v;
      }
      const line = resolveLine(snap, {
        key: '',
        productId: product.id,
        variationId: variation?.id ?? null,
        quantity,
        variation: chosen,
        extraData: null,
      });
      if (!line) throw new CartError(text('cart.cannotPurchase'));
      const name = variation ? variationName(variation) : product.name;
      // Stock is checked where it is held: the variation when it manages its stock, else the product.
      const holder = variation?.manageStock ? variation : product;
      const status = holder === variation ? stockStatusOf(variation) : stockStatusOf(product);
      if (status === 'outofstock') throw new CartError(text('cart.outOfStock', { name }));
      if (holder.manageStock && holder.backorders === 'no') {
        const stock = holder.stockQuantity ?? 0;
        if (quantity > stock) throw new CartError(text('cart.notEnoughStock', { name, stock }));
        const inCart = cart.items
          .filter((i) =>
            holder === variation
              ? i.variationId === variation!.id
              : i.productId === product!.id &&
                (i.variationId === null || !snap.variationsById.get(i.variationId)?.manageStock),
          )
          .reduce((s, i) => s + i.quantity, 0);
        if (inCart + quantity > stock) throw new CartError(text('cart.notEnoughInCart', { stock, inCart }));
      }
      const extraData = input.extraData ?? null;
      if (extraData !== null) {
        try {
          const parsed = JSON.parse(extraData);
          if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error();
        } catch {
          throw new CartError('Failed to add cart item. Please check input.');
        }
      }
      const key = cartItemKey(product.id, variation?.id ?? null, chosen, extraData);
      const existing = cart.items.find((i) => i.key === key);
      if ((existing?.quantity ?? 0) + quantity > this.settings.maxLineQuantity)
        throw new CartError(quantityCapMessages.line(this.settings.maxLineQuantity, name));
      if (cart.items.reduce((sum, i) => sum + i.quantity, 0) + quantity > this.settings.maxCartQuantity)
        throw new CartError(quantityCapMessages.cart(this.settings.maxCartQuantity));
      if (existing) existing.quantity += quantity;
      else {
        if (cart.items.length >= MAX_CART_LINES) throw new CartError(text('cart.full', { max: MAX_CART_LINES }));
        cart.items.push({
          key,
          productId: product.id,
          variationId: variation?.id ?? null,
          quantity,
          variation: chosen,
          extraData,
        } satisfies StoredCartItem);
      }
      return key;
    });
    return { key: result, view };
  }

  async updateItemQuantities(who: Who, items: ({ key: string; quantity: number } | null)[] | null | undefined) {
    const list = (items ?? []).filter((i): i is { key: string; quantity: number } => !!i);
    if (!list.length) throw new CartError('No item data provided');
    if (list.some((i) => !Number.isInteger(i.quantity) || i.quantity < 0 || typeof i.key !== 'string'))
      throw new CartError('Provided "items" invalid');
    const { result, view, before } = await this.mutate(who, ({ cart, snap }) => {
      const missing = list.filter((i) => !cart.items.some((c) => c.key === i.key)).map((i) => i.key);
      if (missing.length) throw new CartError(`Cart items identified with keys ${missing.join(', ')} failed to update`);
      const totalBefore = cart.items.reduce((sum, i) => sum + i.quantity, 0);
      const updated: string[] = [];
      const removed: string[] = [];
      for (const i of list) {
        if (i.quantity === 0) {
          cart.items = cart.items.filter((c) => c.key !== i.key);
          removed.push(i.key);
        } else {
          const item = cart.items.find((c) => c.key === i.key)!;
          if (i.quantity > this.settings.maxLineQuantity)
            throw new CartError(
              quantityCapMessages.line(
                this.settings.maxLineQuantity,
                resolveLine(snap, item)?.name ?? text('cart.thisItem'),
              ),
            );
          item.quantity = i.quantity;
          updated.push(i.key);
        }
      }
      // The whole-cart cap only stops growth: a cart already past it (the cap was lowered) can still shrink.
      const totalAfter = cart.items.reduce((sum, i) => sum + i.quantity, 0);
      if (totalAfter > totalBefore && totalAfter > this.settings.maxCartQuantity)
        throw new CartError(quantityCapMessages.cart(this.settings.maxCartQuantity));
      checkStockFor(snap, cart.items, updated);
      return { updated, removed };
    });
    return { ...result, view, before };
  }

  async removeItems(who: Who, keys: (string | null)[] | null | undefined, all: boolean | null | undefined) {
    const { result, view, before } = await this.mutate(who, ({ cart }) => {
      if (!cart.items.length) throw new CartError('No items in cart to remove.');
      let wanted = (keys ?? []).filter((k): k is string => !!k);
      if (all) wanted = cart.items.map((i) => i.key);
      if (!wanted.length) throw new CartError('No cart item keys provided');
      for (const k of wanted)
        if (!cart.items.some((i) => i.key === k)) throw new CartError(`No cart item found with the key: ${k}`);
      cart.items = cart.items.filter((i) => !wanted.includes(i.key));
      return wanted;
    });
    return { removed: result, view, before };
  }

  async emptyCart(who: Who): Promise<{ view: CartView; before: CartView }> {
    const { view, before } = await this.mutate(who, ({ cart }) => {
      if (!cart.items.length) throw new CartError('Cart is empty');
      cart.items = [];
      cart.coupons = [];
    });
    return { view, before };
  }

  async applyCoupon(who: Who, rawCode: string): Promise<{ code: string; view: CartView }> {
    const code = (rawCode ?? '').trim();
    if (!code) throw new CartError(couponMessages.empty());
    // The minimum spend is compared with the subtotal at the customer's prices (their saved address too).
    const saved = await this.savedFor(who);
    const { view } = await this.mutate(who, async ({ cart, customer, snap, tx }) => {
      const coupon = await this.coupons.findByCode(code, tx);
      if (!coupon) throw new CouponError(couponMessages.notFound(code.toLowerCase()));
      await this.coupons.checkUsage(coupon, { userId: who.userId, email: customer.billing.email || null }, tx);
      const resolved = cart.items
        .map((i) => resolveLine(snap, i))
        .filter((l): l is NonNullable<typeof l> => l !== null);
      checkCouponRules(
        coupon,
        discountLines(snap, resolved),
        shownSubtotalCents(resolved, this.assumed(customer, saved), this.settings),
      );
      if (cart.coupons.includes(code)) throw new CartError('This coupon has already been applied to the cart');
      if (cart.coupons.includes(coupon.code)) throw new CouponError(couponMessages.alreadyApplied(coupon.code));
      const applied = await this.coupons.findByCodes(cart.coupons, tx);
      const individual = applied.find((c) => c.individualUse);
      if (individual) throw new CouponError(couponMessages.individualUse(individual.code));
      // An individual-use coupon replaces the others (WooCommerce removes them).
      cart.coupons = coupon.individualUse ? [coupon.code] : [...cart.coupons, coupon.code];
      if (coupon.freeShipping) cart.chosenShipping = [];
    });
    if (!view.coupons.some((c) => c.coupon.code === code.toLowerCase()))
      throw new CartError('Failed to apply coupon. Check for an individual-use coupon on cart.');
    return { code: code.toLowerCase(), view };
  }

  async removeCoupons(who: Who, codes: (string | null)[] | null | undefined): Promise<CartView> {
    const list = (codes ?? []).filter((c): c is string => !!c && !!c.trim()).map((c) => c.trim().toLowerCase());
    if (!list.length) throw new CartError('No coupon codes provided');
    const { view } = await this.mutate(who, ({ cart }) => {
      for (const c of list)
        if (!cart.coupons.includes(c)) throw new CartError('This coupon has not been applied to the cart.');
      cart.coupons = cart.coupons.filter((c) => !list.includes(c));
      cart.chosenShipping = cart.chosenShipping.filter((r) => !r.startsWith('free_shipping:'));
    });
    return view;
  }

  async updateShippingMethod(who: Who, methods: (string | null)[] | null | undefined): Promise<CartView> {
    const list = (methods ?? []).map((m) => m ?? '');
    if (!list.length || list.every((m) => !m)) throw new CartError('No shipping method provided');
    const saved = await this.savedFor(who);
    const { view } = await this.mutate(who, async ({ cart, customer, snap, tx }) => {
      const applied = await this.validCoupons(
        snap,
        cart,
        customer,
        who,
        await this.coupons.findByCodes(cart.coupons, tx),
        tx,
      );
      const current = computeCart(snap, cart, this.assumed(customer, saved), applied, this.settings);
      list.forEach((rateId, i) => {
        const pkg = current.packages[i];
        if (!pkg) throw new CartError(`No shipping packages available for corresponding index ${i}`);
        if (!pkg.rates.some((r) => r.id === rateId))
          throw new CartError(
            `"${rateId}" is not an available shipping method for shipping package "${pkg.packageDetails}"`,
          );
      });
      cart.chosenShipping = list;
      // Chosen among the rates offered now: the shopper's choice, whatever became available before.
      cart.offeredShipping = current.packages[0]?.rates.map((r) => r.id) ?? [];
    });
    return view;
  }

  /**
   * The session's address (shipping/tax calculation). Unknown fields are kept; given ones replace. Returns
   * the customer as the cart now assumes it.
   */
  async updateSessionCustomer(
    who: Who,
    input: {
      billing?: Partial<Record<keyof Address, string | null>> | null;
      shipping?: Partial<Record<keyof Address, string | null>> | null;
      shippingSameAsBilling?: boolean | null;
      /** The billing VAT ID's check when the caller made it already (null: the VAT ID is removed). */
      vat?: VatCheck | null;
    },
  ): Promise<SessionCustomer> {
    // A VAT ID is checked (format, then VIES) before the session is locked: VIES may take seconds.
    // undefined: not given, left as it is; null: removed.
    let vat: VatCheck | null | undefined = input.vat;
    const typedVatId = input.billing?.vatId;
    if (vat === undefined && typedVatId !== undefined) {
      const raw = (typedVatId ?? '').trim();
      if (raw) {
        const current = await this.customer(who);
        const country = (input.billing?.country ?? current.billing.country).trim().toUpperCase();
        vat = await this.vatIds.check(raw, country, current.vat, {
          caller: { session: who.customerId, clientIp: who.clientIp },
        });
      } else vat = null;
    }
    const { result } = await this.mutate(who, ({ customer }) => {
      const merge = (target: Address, patch: Partial<Record<keyof Address, string | null>> | null | undefined) => {
        if (!patch) return;
        for (const f of ADDRESS_FIELDS) {
          const v = patch[f];
          if (v !== undefined) target[f] = (v ?? '').trim();
        }
      };
      merge(customer.billing, input.billing);
      if (input.shippingSameAsBilling)
        merge(customer.shipping, { ...customer.billing, email: undefined, phone: undefined });
      else merge(customer.shipping, input.shipping);
      if (vat !== undefined) {
        customer.billing.vatId = vat?.vatId ?? '';
        customer.vat = vat;
      }
      if (input.shipping?.country !== undefined || input.billing?.country !== undefined)
        customer.calculatedShipping = true;
      return customer;
    });
    return this.assumed(result, await this.savedFor(who));
  }
}
