/**
 * Checkout: validates the input, then in ONE transaction holding the
 * session lock takes stock (conditional UPDATEs), records coupon uses, writes the order and empties the
 * cart. Anything that fails rolls all of it back, so a failed checkout leaves stock and coupons as they
 * were. `isPaid` is accepted and ignored: an order is paid only when the engine verified the payment
 * itself (Stripe PaymentIntent retrieved from Stripe; KDA seen on chain by the watcher).
 */
import { createHash } from 'node:crypto';
import type { CatalogService } from '../catalog/service.ts';
import { takeStock } from '../catalog/stock.ts';
import { readCart, readCustomer, type Address } from '../cart/model.ts';
import { computeCart, shownSubtotalCents, type CartView } from '../cart/totals.ts';
import { checkCouponRules } from '../coupons/discounts.ts';
import type { CouponService } from '../coupons/service.ts';
import type { OrderRow, OrderService } from '../orders/service.ts';
import type { SessionService } from '../session/service.ts';
import { quantityCapProblem } from '../cart/service.ts';
import type { ConsumeInput, ConsumeResult, RateLimiter } from '../rate-limit/index.ts';
import { errorSummary } from '../error-summary.ts';
import { discountLines, resolveLine } from '../cart/totals.ts';
import type { DbOrTx } from '../db/connection.ts';
import { gatewayList, gatewayTitle, type Gateway, type GatewayId } from './gateways.ts';
import type { CommerceSettings } from '../shop/settings.ts';
import { addressProblems, toAddress, type AddressInput } from '../cart/address-validation.ts';
import { orderItemTaxFields, orderTaxFields, vatOrderNotes } from './order-tax.ts';
import { VatIdChecker, type VatCheck } from '../tax/vat-check.ts';
import { VatIdError } from '../tax/vat-id.ts';
import { shippingLabel } from '../shipping/labels.ts';
import { joinedText, renderText, text, type EngineText } from '../i18n/text.ts';
import { ShopperError } from '../i18n/shopper-error.ts';
import { DEFAULT_LOCALE, type LocaleCode } from '../../lib/i18n/locales.ts';
import { lineName, orderItemAttributes } from '../catalog/display-names.ts';

/** A refused checkout; several texts (each address problem) are said one after the other. */
export class CheckoutError extends ShopperError {
  override name = 'CheckoutError';
  /** The refusal may not hold on a later try (Stripe could not be asked): a retry may place the order. */
  readonly retryable: boolean;
  constructor(message: string | EngineText | EngineText[], options: { code?: string; retryable?: boolean } = {}) {
    super(Array.isArray(message) ? joinedText(message) : message, options.code);
    this.retryable = options.retryable ?? false;
  }
}

/**
 * A VAT ID checked this recently (while the shopper filled in the checkout) is not asked about again: the
 * cart was priced with that check, and a card payment is confirmed before the order is placed, so the
 * order must come out at the price the shopper saw and paid. One VIES could not check stays unverified
 * and is flagged on the order.
 */
const VAT_CHECK_KEPT_AT_CHECKOUT_MS = 30 * 60_000;

/** The orders table keeps amounts in integer columns: an order past this many cents cannot be stored. */
const MAX_ORDER_CENTS = 2_147_483_647;

/** What the rate limiter calls a client whose address the engine could not tell (rateLimitKeyForIp). */
const UNKNOWN_CLIENT = 'unknown';

type OrderLimit = ConsumeInput & { refusal: (retryAfterSeconds: number) => CheckoutError };

const inMinutes = (retryAfterSeconds: number) => {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return text(minutes === 1 ? 'checkout.minutes.one' : 'checkout.minutes.other', { count: minutes });
};

export type CheckoutInput = {
  paymentMethod?: string | null;
  shippingMethod?: (string | null)[] | null;
  shipToDifferentAddress?: boolean | null;
  billing?: AddressInput;
  shipping?: AddressInput;
  account?: { username?: string | null; password?: string | null } | null;
  customerNote?: string | null;
  metaData?: ({ key: string; value: string } | null)[] | null;
  transactionId?: string | null;
  isPaid?: boolean | null;
  createdVia?: string | null;
};

/** Card payments: the engine retrieves the PaymentIntent from Stripe, then checks it against the order. */
export type StripeCheckoutHook = {
  /**
   * Ask Stripe (outside any transaction). Returns a refusal message when there is no usable intent;
   * `retryable` when Stripe could not be asked (the intent may well be fine).
   */
  retrieve(
    paymentIntentId: string,
  ): Promise<{ ok: true; intent: unknown } | { ok: false; message: string; retryable?: boolean }>;
  /** The acceptance rule (succeeded, exact amount and currency, bound to this session): null = accepted. */
  check(intent: unknown, expected: { amountCents: number; currency: string; sessionRef: string }): string | null;
};

/** KDA payments: the order's own account and the amount due at the configured rate. */
export type KdaCheckoutHook = {
  quote(
    orderId: number,
    totalCents: number,
  ): { account: string; amountKda: string; rate: string; windowMinutes: number; graceMinutes: number };
};

export type AccountRequest = { username: string; password: string; email: string; firstName: string; lastName: string };
export type PreparedAccount = {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  passwordHash: string;
  /** The checkout's language: the new account's mails are written in it. */
  locale?: LocaleCode;
};

/** "Create an account" at checkout: the accounts domain behind it (checkout/accounts.ts). */
export type CheckoutAccountHook = {
  prepare(request: AccountRequest, clientIp: string): Promise<PreparedAccount>;
  create(tx: DbOrTx, account: PreparedAccount): Promise<{ userId: number }>;
  /**
   * Saves the addresses of an order on the customer's account (the one the checkout created, or the
   * logged-in customer's), as WooCommerce does: only the fields the checkout asked for; `shipping` null
   * leaves the saved shipping address as it is (nothing was shipped).
   */
  saveAddresses(userId: number, billing: Partial<Address>, shipping: Partial<Address> | null): Promise<void>;
  sendVerification(userId: number): Promise<void>;
};

/** `accountUserId`: the customer account this checkout created (the order belongs to it). */
export type CheckoutResult = { order: OrderRow; redirect: string; accountUserId: number | null };

export type CheckoutOptions = {
  /** The client's rate-limit key (rateLimitKeyForIp); absent or 'unknown' when the engine cannot tell. */
  clientIp?: string;
  /** The shopper's language (the request's): the order keeps it for its mails and invoice. Default English. */
  locale?: LocaleCode;
  /**
   * Called with the card payment Stripe returned, before the order's transaction (payments/stripe/recovery.ts
   * records the Checkout there, so only payments Stripe knows are ever recorded).
   */
  onCardPayment?: (intent: unknown) => Promise<void>;
};

export type AfterOrder = (order: OrderRow) => void | Promise<void>;

/** Work that must commit with the order, in its transaction (the confirmation e-mail's queue entry). */
export type InOrderTransaction = (tx: DbOrTx, order: OrderRow) => Promise<void>;

/** The collaborators a checkout uses when the engine has them; each one absent switches its part off. */
export type CheckoutPorts = {
  /** Card payments (payments/stripe/gateway.ts); null when the card gateway is off. */
  stripe?: StripeCheckoutHook | null;
  /** KDA payments (payments/kadena/checkout.ts); null when the KDA gateway is off. */
  kda?: KdaCheckoutHook | null;
  /** "Create an account" at checkout, when the accounts domain is there. */
  accounts?: CheckoutAccountHook | null;
  /** The limits on placed orders per client address and per e-mail. */
  limiter?: RateLimiter | null;
  /** Checks business customers' VAT IDs (tax/vat-check.ts); absent: the format only, every ID unverified. */
  vatIds?: VatIdChecker | null;
  /** Called in the order's transaction with the placed order; a failure rolls the order back. */
  withOrder?: InOrderTransaction[];
  /** Called after the order committed (e-mail, …); failures are logged, never undo the order. */
  afterOrder?: AfterOrder[];
};

/** The billing fields a checkout asks for when the billing address is hidden (every item virtual). */
function contactFields(a: Address): Partial<Address> {
  return { firstName: a.firstName, lastName: a.lastName, email: a.email, phone: a.phone };
}

/** What the rest of the engine uses of a checkout (CheckoutService, or the card recovery around it). */
export type Checkout = Pick<CheckoutService, 'checkout' | 'gateways'>;

export class CheckoutService {
  readonly stripe: StripeCheckoutHook | null;
  readonly kda: KdaCheckoutHook | null;
  readonly accounts: CheckoutAccountHook | null;
  readonly limiter: RateLimiter | null;
  readonly vatIds: VatIdChecker;
  readonly withOrder: readonly InOrderTransaction[];
  readonly afterOrder: readonly AfterOrder[];

  constructor(
    private readonly sessions: SessionService,
    private readonly catalog: CatalogService,
    private readonly coupons: CouponService,
    private readonly orders: OrderService,
    private readonly settings: CommerceSettings,
    private readonly allowedCountries: string[],
    ports: CheckoutPorts = {},
  ) {
    this.stripe = ports.stripe ?? null;
    this.kda = ports.kda ?? null;
    this.accounts = ports.accounts ?? null;
    this.limiter = ports.limiter ?? null;
    this.vatIds = ports.vatIds ?? new VatIdChecker({ viesUrl: null, viesTimeoutMs: 0, recheckMs: 0 });
    this.withOrder = ports.withOrder ?? [];
    this.afterOrder = ports.afterOrder ?? [];
  }

  /** The gateways the shop can take payments through, titled in `locale`. */
  gateways(locale: LocaleCode = DEFAULT_LOCALE.code): Gateway[] {
    return gatewayList({ cod: this.settings.codEnabled, stripe: this.stripe !== null, kda: this.kda !== null }, locale);
  }

  /**
   * The order limits of one checkout: placed orders per client address and per billing e-mail (lower case,
   * kept as a hash: the counters need no readable address). Counted in the order's transaction, so refused
   * checkouts never count.
   */
  private orderLimits(clientIp: string | undefined, email: string): OrderLimit[] {
    const limits: OrderLimit[] = [];
    if (clientIp && clientIp !== UNKNOWN_CLIENT) {
      limits.push({
        bucket: 'checkout:ip',
        key: clientIp,
        limit: this.settings.ordersPerIpPerHour,
        windowSeconds: 3600,
        refusal: (wait) =>
          new CheckoutError(text('checkout.tooManyFromConnection', { wait: inMinutes(wait) }), {
            code: 'RATE_LIMITED',
          }),
      });
    }
    const normalized = email.trim().toLowerCase();
    if (normalized) {
      limits.push({
        bucket: 'checkout:email',
        key: createHash('sha256').update(normalized).digest('hex'),
        limit: this.settings.ordersPerEmailPerHour,
        windowSeconds: 3600,
        refusal: (wait) =>
          new CheckoutError(text('checkout.tooManyForEmail', { wait: inMinutes(wait) }), {
            code: 'RATE_LIMITED',
          }),
      });
    }
    return limits;
  }

  /**
   * The billing VAT ID's check (tax/vat-check.ts), or null when none was given. A malformed one, one of
   * another country than the billing address and one VIES says is not valid are refused with the reason's
   * code, so the storefront can say it in the shopper's language; the cart stays as it was.
   */
  private async checkVatId(
    who: { customerId: string },
    billing: AddressInput,
    clientIp: string | undefined,
  ): Promise<VatCheck | null> {
    const raw = (billing?.vatId ?? '').trim();
    if (!raw) return null;
    const customer = readCustomer(await this.sessions.load(who.customerId));
    const country = (billing?.country ?? '').trim().toUpperCase() || customer.billing.country;
    try {
      return await this.vatIds.check(raw, country, customer.vat, {
        keepRecentMs: VAT_CHECK_KEPT_AT_CHECKOUT_MS,
        caller: { session: who.customerId, clientIp },
      });
    } catch (err) {
      if (err instanceof VatIdError) throw new CheckoutError(err.message, { code: err.code });
      throw err;
    }
  }

  async checkout(
    who: { customerId: string; userId?: string | null },
    input: CheckoutInput,
    options: CheckoutOptions = {},
  ): Promise<CheckoutResult> {
    const method = (input.paymentMethod ?? '').trim() as GatewayId;
    // A client or e-mail that has placed its orders for the hour is refused before any work (checked again,
    // and counted, in the order's transaction below).
    const limiter = this.limiter;
    if (limiter) {
      for (const limit of this.orderLimits(options.clientIp, toAddress(input.billing).email)) {
        const r: ConsumeResult = await limiter.wouldAllow(limit);
        if (!r.allowed) throw limit.refusal(r.retryAfterSeconds);
      }
    }
    // A guest asking for an account (a logged-in customer has one: `account` is ignored, as in
    // WooCommerce). Checked and hashed before the transaction; created inside it.
    let newAccount: PreparedAccount | null = null;
    if (input.account && !who.userId) {
      if (!this.accounts) throw new CheckoutError(text('checkout.accountUnavailable'));
      newAccount = await this.accounts.prepare(
        {
          username: input.account.username ?? '',
          password: input.account.password ?? '',
          email: input.billing?.email ?? '',
          firstName: input.billing?.firstName ?? '',
          lastName: input.billing?.lastName ?? '',
        },
        options.clientIp ?? 'unknown',
      );
    }
    const snap = await this.catalog.snapshot();
    // A business's VAT ID is checked before the transaction too: VIES may take seconds.
    const vat = await this.checkVatId(who, input.billing, options.clientIp);

    // The card payment is looked up before the transaction (a network call must not hold the lock);
    // its amount is compared with the order total inside it.
    let stripeIntent: { id: string; intent: unknown } | null = null;
    if (method === 'stripe' && this.stripe) {
      const id = (input.transactionId ?? '').trim();
      if (!id) throw new CheckoutError(text('checkout.cardMissing'));
      // An empty cart pays for nothing: refused without asking Stripe about an id anyone can make up (the
      // transaction checks again under the lock).
      if (!readCart(await this.sessions.load(who.customerId)).items.length)
        throw new CheckoutError(text('checkout.noSession'));
      const r = await this.stripe.retrieve(id);
      if (!r.ok) throw new CheckoutError(r.message, { retryable: r.retryable });
      stripeIntent = { id, intent: r.intent };
      await options.onCardPayment?.(r.intent);
    }

    const placed = await this.sessions.update(who.customerId, async (data, tx) => {
      const cart = readCart(data);
      const customer = readCustomer(data);
      if (!cart.items.length) throw new CheckoutError(text('checkout.noSession'));
      const resolved = cart.items.map((i) => resolveLine(snap, i));
      if (resolved.some((l) => l === null)) {
        cart.items = cart.items.filter((_, i) => resolved[i] !== null);
        throw new CheckoutError(text('checkout.itemRemoved'));
      }
      // A cart filled before the quantity caps were lowered (the cart refuses more on every change).
      const capProblem = quantityCapProblem(
        resolved.map((l) => l!),
        this.settings,
      );
      if (capProblem) throw new CheckoutError(capProblem);
      const allVirtual = resolved.every((l) => l!.virtual);

      // Addresses.
      const billing = toAddress(input.billing);
      const shipToDifferent = !!input.shipToDifferentAddress && !allVirtual;
      billing.vatId = vat?.vatId ?? '';
      const shipping = shipToDifferent ? toAddress(input.shipping) : { ...billing, email: '', phone: '' };
      shipping.vatId = '';
      if (!billing.country && !(this.settings.hideBillingForVirtual && allVirtual))
        billing.country = customer.billing.country;
      const hideBilling = this.settings.hideBillingForVirtual && allVirtual;
      const billingRequired: (keyof Address)[] = hideBilling
        ? ['firstName', 'lastName', 'email']
        : ['firstName', 'lastName', 'address1', 'city', 'postcode', 'country', 'email'];
      const problems = addressProblems('Billing', billing, billingRequired, this.allowedCountries);
      if (shipToDifferent)
        problems.push(
          ...addressProblems(
            'Shipping',
            shipping,
            ['firstName', 'lastName', 'address1', 'city', 'postcode', 'country'],
            this.allowedCountries,
          ),
        );
      else if (!shipToDifferent && !allVirtual) shipping.state = billing.state;
      if (problems.length) throw new CheckoutError(problems);
      customer.billing = { ...billing };
      customer.vat = vat;
      customer.shipping = allVirtual ? customer.shipping : { ...shipping };
      if (!allVirtual) customer.calculatedShipping = true;

      // Coupons: still valid, and allowed for this billing e-mail (restrictions, per-customer limits).
      const applied = await this.coupons.findByCodes(cart.coupons, tx);
      const dLines = discountLines(
        snap,
        resolved.map((l) => l!),
      );
      const shown = shownSubtotalCents(
        resolved.map((l) => l!),
        customer,
        this.settings,
      );
      for (const c of applied) {
        checkCouponRules(c, dLines, shown);
        await this.coupons.checkForCustomer(c, { userId: who.userId, email: billing.email }, tx);
      }
      if (applied.length !== cart.coupons.length) {
        const missing = cart.coupons.filter((code) => !applied.some((c) => c.code === code));
        throw new CheckoutError(missing.map((code) => text('checkout.couponRemoved', { code })));
      }

      // Shipping choice.
      // An explicitly posted rate must be offered for the address; a stored choice that the new address
      // no longer offers falls back to the default rate (as WooCommerce does when the address changes).
      const posted = input.shippingMethod?.some((m) => !!m) ? input.shippingMethod.map((m) => m ?? '') : null;
      if (posted) {
        cart.chosenShipping = posted;
        // Chosen among the rates the shopper sees now: kept even if free shipping appeared since the last save.
        cart.offeredShipping = null;
      }
      const view: CartView = computeCart(snap, cart, customer, applied, this.settings);
      if (view.needsShipping) {
        const pkg = view.packages[0];
        const wanted = posted?.[0];
        if (!pkg?.rates.length || (wanted && !pkg.rates.some((r) => r.id === wanted)) || !view.chosenRates.length) {
          throw new CheckoutError(text('checkout.noShippingMethod'));
        }
      }

      if (Math.max(view.subtotalCents, view.totalCents) > MAX_ORDER_CENTS)
        throw new CheckoutError(text('checkout.tooLarge'));

      // Payment method.
      const locale = options.locale ?? DEFAULT_LOCALE.code;
      const gateways = this.gateways(locale);
      const gateway = gateways.find((g) => g.id === method);
      if (view.totalCents > 0 && !gateway) throw new CheckoutError(text('checkout.invalidPaymentMethod'));
      if (method === 'stripe' && view.totalCents > 0) {
        const problem = this.stripe!.check(stripeIntent!.intent, {
          amountCents: view.totalCents,
          currency: this.settings.currency,
          sessionRef: who.customerId,
        });
        if (problem) throw new CheckoutError(problem);
      }

      // The new account, then stock, then the order, then coupon uses — all or nothing.
      let ownerUserId = who.userId ?? null;
      let accountUserId: number | null = null;
      if (newAccount) {
        accountUserId = (
          await this.accounts!.create(tx, {
            ...newAccount,
            email: billing.email,
            firstName: billing.firstName,
            lastName: billing.lastName,
            locale,
          })
        ).userId;
        ownerUserId = String(accountUserId);
      }
      const taken = await takeStock(
        tx,
        view.lines.map((l) => ({
          productId: l.product.id,
          variationId: l.variation?.id ?? null,
          quantity: l.quantity,
          name: l.name,
        })),
      );
      const now = new Date();
      const created = await this.orders.create(
        tx,
        {
          status: 'pending',
          customerId: ownerUserId ?? who.customerId,
          currency: this.settings.currency,
          paymentMethod: gateway?.id ?? (method || 'none'),
          paymentMethodTitle: gateway
            ? gateway.title
            : method
              ? (gatewayTitle(method, locale) ?? method)
              : renderText(text('checkout.freeOrder'), locale),
          locale,
          createdVia: (input.createdVia ?? 'checkout').slice(0, 40) || 'checkout',
          customerNote: (input.customerNote ?? '').slice(0, 2000),
          billing,
          shipping:
            allVirtual && !shipToDifferent
              ? {
                  ...shipping,
                  firstName: '',
                  lastName: '',
                  address1: '',
                  address2: '',
                  city: '',
                  postcode: '',
                  company: '',
                }
              : shipping,
          subtotalCents: view.subtotalCents,
          discountCents: view.discountCents,
          discountTaxCents: view.discountTaxCents,
          shippingCents: view.shippingCents,
          shippingTaxCents: view.shippingTaxCents,
          cartTaxCents: view.contentsTaxCents,
          totalTaxCents: view.totalTaxCents,
          totalCents: view.totalCents,
          shippingLines: view.chosenRates.map((r) => ({
            rateId: r.id,
            methodId: r.methodId,
            instanceId: r.instanceId,
            // Kept as the shopper saw it: the order's pages and mails are in the order's language.
            label: shippingLabel(r.label, locale),
            totalCents: r.costCents,
            taxCents: view.shippingTaxCents,
          })),
          couponLines: view.coupons.map((c) => ({
            code: c.coupon.code,
            discountCents: c.discountCents,
            discountTaxCents: c.discountTaxCents,
            freeShipping: c.coupon.freeShipping,
          })),
          taxLines: view.taxRate
            ? [
                {
                  country: view.taxRate.country,
                  label: view.taxRate.label,
                  rateBasisPoints: view.taxRate.basisPoints,
                  taxCents: view.contentsTaxCents,
                  shippingTaxCents: view.shippingTaxCents,
                },
              ]
            : [],
          ...orderTaxFields(view, this.settings, vat),
          metaData: (input.metaData ?? [])
            .filter((m): m is { key: string; value: string } => !!m && typeof m.key === 'string')
            .slice(0, 50)
            .map((m) => ({ key: m.key.slice(0, 255), value: String(m.value).slice(0, 2000) })),
          stockReduced: true,
          holdExpiresAt:
            this.settings.holdStockMinutes > 0
              ? new Date(now.getTime() + this.settings.holdStockMinutes * 60_000)
              : null,
        },
        view.lines.map((l, i) => ({
          productId: l.product.id,
          variationId: l.variation?.id ?? null,
          // Recorded in the order's language with the term names ("Hoodie - Schwarz, M"), as the customer
          // saw the line: the order's pages and mails show it even after the catalog changes.
          name: lineName(l, locale),
          sku: l.variation?.sku ?? l.product.sku,
          quantity: l.quantity,
          subtotalCents: l.subtotalCents,
          subtotalTaxCents: l.subtotalTaxCents,
          totalCents: l.totalCents,
          totalTaxCents: l.taxCents,
          ...orderItemTaxFields(l),
          virtual: l.virtual,
          downloadable: l.downloadable,
          attributes: l.variation ? l.variation.attributes : {},
          // The choices by their names as the line showed them ("Antennengewinn: 5,8 dBi"), kept with the order.
          attributeNames: l.variation ? orderItemAttributes(l.product, l.variation.attributes, locale) : [],
          backordered: taken[i]!.backordered,
          stockReduced: taken[i]!.reduced,
        })),
      );
      await this.coupons.recordUsage(tx, applied, created.id, { userId: ownerUserId, email: billing.email });
      for (const note of vatOrderNotes(view, vat)) await this.orders.addNote(tx, created.id, note);

      // Payment.
      let final: OrderRow = created;
      const hasDownloads = view.lines.some((l) => l.downloadable);
      if (view.totalCents === 0) {
        final =
          (await this.orders.paymentComplete(tx, snap, created.id, null, 'Order total is zero: no payment needed.')) ??
          created;
      } else if (method === 'cod') {
        const to = hasDownloads ? 'on-hold' : 'processing';
        final = (await this.orders.transition(tx, created.id, ['pending'], to, { holdExpiresAt: null })) ?? created;
        await this.orders.addNote(tx, created.id, 'Payment to be made upon delivery.');
      } else if (method === 'stripe' && stripeIntent) {
        // Verified above against this exact total; the unique index on (payment_method, transaction_id)
        // refuses a PaymentIntent that another order already used.
        try {
          final =
            (await this.orders.paymentComplete(
              tx,
              snap,
              created.id,
              stripeIntent!.id,
              `Card payment ${stripeIntent!.id} verified with Stripe.`,
            )) ?? created;
        } catch (err) {
          if (/unique|duplicate/i.test((err as Error).message)) throw new CheckoutError(text('checkout.cardReused'));
          throw err;
        }
      } else if (method === 'kda' && this.kda) {
        const q = this.kda!.quote(created.id, view.totalCents);
        const expires = new Date(now.getTime() + q.windowMinutes * 60_000);
        await this.orders.update(tx, created.id, {
          paymentCurrency: 'KDA',
          cryptoAmount: q.amountKda,
          cryptoRate: q.rate,
          paymentAddress: q.account,
          receivedUnconfirmed: '0',
          receivedConfirmed: '0',
          paymentExpiresAt: expires,
          // The watcher decides at the window's end (a payment sent in time but still confirming gets a
          // grace period); the hold-stock sweeper is the backstop after that.
          holdExpiresAt: new Date(expires.getTime() + q.graceMinutes * 60_000),
        });
        await this.orders.addNote(tx, created.id, `Awaiting ${q.amountKda} KDA at ${q.account}.`);
        final = (await this.orders.get(created.id, tx))!;
      }

      // Counted last, with the order: a refusal rolls everything back, and the counter rows stay locked
      // only from here to the commit.
      if (limiter) {
        for (const limit of this.orderLimits(options.clientIp, billing.email)) {
          const r = await limiter.consume(limit, tx);
          if (!r.allowed) throw limit.refusal(r.retryAfterSeconds);
        }
      }

      for (const hook of this.withOrder) await hook(tx, final);

      cart.items = [];
      cart.coupons = [];
      return {
        data: { ...data, cart, customer },
        result: {
          order: final,
          accountUserId,
          // What the checkout asked for: the contact fields only when the billing address was hidden; no
          // shipping address when nothing ships.
          billing: hideBilling ? contactFields(billing) : billing,
          shipping: allVirtual ? null : shipping,
        },
      };
    });
    const { order, accountUserId } = placed;
    // The account's addresses follow its orders (the account made now, or the logged-in customer's), so
    // the next checkout starts from them. A convenience: a refusal here (e.g. a country the account page
    // does not accept) is logged and never undoes the order.
    const owner = accountUserId ?? (who.userId ? Number(who.userId) : null);
    if (this.accounts && owner !== null && Number.isSafeInteger(owner)) {
      await this.accounts
        .saveAddresses(owner, placed.billing, placed.shipping)
        .catch((err) =>
          console.error(
            `[meshfront] addresses of the account that placed order ${order.id} not saved:`,
            errorSummary(err),
          ),
        );
    }
    if (accountUserId !== null) {
      await this.accounts!.sendVerification(accountUserId).catch((err) =>
        console.error(
          `[meshfront] e-mail verification for the account created with order ${order.id} not sent:`,
          (err as Error).message,
        ),
      );
    }
    this.catalog.invalidate();
    for (const hook of this.afterOrder) {
      try {
        await hook(order);
      } catch (err) {
        console.error(`[meshfront] after-order hook failed for order ${order.id}:`, errorSummary(err));
      }
    }
    return { order, accountUserId, redirect: `/checkout/order-received/${order.id}/?key=${order.orderKey}` };
  }
}
