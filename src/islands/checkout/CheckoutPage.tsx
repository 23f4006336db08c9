/**
 * The checkout: billing form (countries and states from the engine), an optional different shipping
 * address, order note, create-an-account, payment choice from the engine's gateways (card through
 * Stripe's Payment Element, loaded only when chosen; KDA; cash on delivery), the order review with
 * coupons, shipping choice and totals, and "Place order". Inline validation runs before anything is
 * sent; the engine's errors show above the button. Success leads to
 * /checkout/order-received/{orderId}?key={orderKey}.
 */
import { useStore } from '@nanostores/react';
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import type { CustomerFragment as Customer } from '../../graphql/generated/operations';
import { createLookup, type Strings } from '../../lib/i18n/lookup';
import { asksForVatId, vatIdErrorKey, vatIdProblem } from '../../lib/vat-id';
import { cartSettled, changeShippingCountry, changeVatId } from '../../stores/cart-actions';
import { $cartBusy, $engineCart, cartLines, isCartEmpty } from '../../stores/cart-state';
import {
  $allowedCountries,
  loadAllowedCountries,
  logInAfterCheckout,
  placeOrder,
  rememberPendingCardCheckout,
  takePendingCardCheckout,
} from '../../stores/checkout';
import { $customer } from '../../stores/customer';
import { $paymentGateways } from '../../stores/gateways';
import { $sessionStatus, startSession } from '../../stores/session';
import { $isLoggedIn } from '../../stores/viewer';
import { databaseErrorKey, engineMessage } from '../../stores/engine-message';
import { CartLine, CartTotals, CouponForm, ShippingChoice } from '../cart/parts';
import AddressFields, { Field, fieldId } from './AddressFields';
import { defaultGateway, gatewayKind } from './gateways';
import type { CardConfirm } from './StripePayment';
import {
  addressFromCustomer,
  billingAddressHidden,
  buildCheckoutVariables,
  destinationOf,
  emptyAddress,
  firstInvalidField,
  orderReceivedPath,
  validateCheckout,
  type CheckoutErrors,
  type CheckoutForm,
} from './validation';
import { $countryStates } from '../../stores/checkout';

const StripePayment = lazy(() => import('./StripePayment'));

export interface CheckoutPageProps {
  strings: Strings;
  /** '' for English, '/de' … */
  localePrefix: string;
  /** BCP 47 tag of the page ('de-DE'). */
  lang: string;
  /** The hideBillingAddressForVirtualProducts setting: names and e-mail only when every item is virtual. */
  hideBillingForVirtual?: boolean;
}

function initialForm(country: string): CheckoutForm {
  return {
    billing: emptyAddress(country),
    shipToDifferentAddress: false,
    shipping: emptyAddress(country),
    customerNote: '',
    createAccount: false,
    username: '',
    password: '',
    paymentMethod: '',
  };
}

/**
 * The form from the session's customer: a logged-in customer's saved addresses, and the country the
 * engine assumes for everyone else (the shop's base country), so the form and the cart's estimate agree.
 * A country the shop does not sell to is left for the shopper to choose.
 */
function prefill(form: CheckoutForm, customer: Customer, countries: readonly string[]): CheckoutForm {
  const sold = (address: CheckoutForm['billing']) =>
    countries.includes(address.country) ? address : { ...address, country: '', state: '' };
  const billing = sold(addressFromCustomer(customer.billing));
  if (!billing.email && customer.email) billing.email = customer.email;
  const shipping = sold(addressFromCustomer(customer.shipping, billing.country));
  const differs = Boolean(customer.shipping?.address1) && customer.shipping?.address1 !== customer.billing?.address1;
  return { ...form, billing, shipping, shipToDifferentAddress: differs };
}

/** With nothing to ship the shipping section is not shown, so a shipping address kept from before is not used. */
function withoutHiddenShipping(
  form: CheckoutForm,
  cart: { needsShippingAddress?: boolean | null } | null,
): CheckoutForm {
  return cart?.needsShippingAddress === false && form.shipToDifferentAddress
    ? { ...form, shipToDifferentAddress: false }
    : form;
}

function messageOf(error: unknown, t: (key: string) => string): string {
  // A refused VAT ID is said in the shopper's language (the engine's code says why).
  const vatKey = vatIdErrorKey(error);
  if (vatKey) return t(vatKey);
  // The database briefly unreachable, or the shop's storage full: said in the shopper's language too.
  const databaseKey = databaseErrorKey(error);
  if (databaseKey) return t(databaseKey);
  const message = engineMessage(error);
  if (message.startsWith('checkout.')) return t(message);
  return message || t('checkout.error.failed');
}

export default function CheckoutPage({
  strings,
  localePrefix,
  lang,
  hideBillingForVirtual = false,
}: CheckoutPageProps) {
  const t = createLookup(strings);
  const cart = useStore($engineCart);
  const busy = useStore($cartBusy);
  const status = useStore($sessionStatus);
  const customer = useStore($customer);
  const gateways = useStore($paymentGateways);
  const loggedIn = useStore($isLoggedIn);
  const countries = useStore($allowedCountries);
  const states = useStore($countryStates);

  const [form, setForm] = useState<CheckoutForm>(() => initialForm(''));
  const [errors, setErrors] = useState<CheckoutErrors>({});
  const [formError, setFormError] = useState('');
  const [placing, setPlacing] = useState(false);
  const [mounted, setMounted] = useState(false);
  const touched = useRef(false);
  const lastDestination = useRef('');
  /** The billing country and VAT ID the engine last checked ('' when none), and what it made of them. */
  const lastVat = useRef('');
  const [vatNote, setVatNote] = useState<string | null>(null);
  const cardConfirm = useRef<CardConfirm | null>(null);
  const [cardReady, setCardReady] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once on mount: it starts the session and finishes a card redirect
  useEffect(() => {
    setMounted(true);
    startSession().catch(() => {});
    loadAllowedCountries().catch((error) => setFormError(messageOf(error, t)));
    resumeCardRedirect();
  }, []);

  // Prefill once from the session's customer, unless the shopper has started typing.
  useEffect(() => {
    if (!customer || touched.current || !countries) return;
    setForm((current) => prefill(current, customer, countries));
    lastDestination.current = `${customer.shipping?.country ?? ''}|${customer.shipping?.state ?? ''}`;
    // A VAT ID the session has not priced the cart for yet (e.g. the account's) is checked once more.
    if (customer.isVatExempt) lastVat.current = `${customer.billing?.country ?? ''}|${customer.billing?.vatId ?? ''}`;
  }, [customer, countries]);

  // Default payment choice (defaultGateway: card when offered, else the shop's first gateway). A vanished
  // gateway is unselected.
  useEffect(() => {
    setForm((current) => {
      if (current.paymentMethod && gateways.some((g) => g.id === current.paymentMethod)) return current;
      return { ...current, paymentMethod: defaultGateway(gateways.map((g) => g.id)) };
    });
  }, [gateways]);

  // Rates and taxes follow the destination: tell the engine when it changes (debounced).
  const destination = destinationOf(form);
  const destinationKey = `${destination.country}|${destination.state}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the destination; syncDestination is new on every render and must not restart the debounce
  useEffect(() => {
    if (!destination.country || status !== 'ready' || destinationKey === lastDestination.current) return;
    const timer = setTimeout(() => {
      syncDestination().catch(() => {});
    }, 400);
    return () => clearTimeout(timer);
  }, [destinationKey, status]);

  // A business's VAT ID goes to the engine once it looks right (debounced): the engine checks it with VIES
  // and prices the cart for it (no VAT for a business of another EU country).
  const vatKey = `${form.billing.country}|${asksForVatId(form.billing.country) ? form.billing.vatId.trim() : ''}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the VAT ID and its country; syncVatId is new on every render
  useEffect(() => {
    if (status !== 'ready' || vatKey === lastVat.current) return;
    const timer = setTimeout(() => {
      syncVatId().catch(() => {});
    }, 600);
    return () => clearTimeout(timer);
  }, [vatKey, status]);

  /** Tells the engine the billing VAT ID unless it has it already; its refusal shows at the field. */
  function syncVatId(): Promise<unknown> {
    const country = form.billing.country;
    const vatId = asksForVatId(country) ? form.billing.vatId.trim() : '';
    const key = `${country}|${vatId}`;
    if (key === lastVat.current || (vatId && vatIdProblem(vatId, country))) return Promise.resolve();
    const hadOne = lastVat.current !== '' && !lastVat.current.endsWith('|');
    lastVat.current = key;
    if (!vatId && !hadOne) return Promise.resolve();
    setVatNote(vatId ? t('checkout.vat.checking') : null);
    return changeVatId(country, vatId).then(
      () =>
        setVatNote(
          vatId ? t($customer.get()?.isVatExempt ? 'checkout.vat.reverseCharge' : 'checkout.vat.accepted') : null,
        ),
      (error) => {
        lastVat.current = '';
        setVatNote(null);
        const key = vatIdErrorKey(error);
        if (key) setErrors((current) => ({ ...current, 'billing.vatId': key }));
        throw error;
      },
    );
  }

  /** Tells the engine the current destination unless it already has it (the debounce or "Place order"). */
  function syncDestination(): Promise<unknown> {
    const current = destinationOf(form);
    const key = `${current.country}|${current.state}`;
    if (!current.country || key === lastDestination.current) return Promise.resolve();
    lastDestination.current = key;
    return changeShippingCountry(current, {
      country: form.billing.country || current.country,
      state: form.billing.state,
    });
  }

  const update = (change: (f: CheckoutForm) => CheckoutForm) => {
    touched.current = true;
    setForm((current) => change(current));
  };
  /** A field the shopper edits loses its error until the next "Place order". */
  const clearErrors = (paths: string[]) => {
    if (!paths.some((p) => errors[p])) return;
    setErrors((current) => Object.fromEntries(Object.entries(current).filter(([path]) => !paths.includes(path))));
  };
  const changeAddress = (kind: 'billing' | 'shipping', next: CheckoutForm['billing']) => {
    const previous = form[kind];
    clearErrors(
      (Object.keys(next) as (keyof typeof next)[]).filter((k) => next[k] !== previous[k]).map((k) => `${kind}.${k}`),
    );
    update((f) => ({ ...f, [kind]: next }));
  };

  const onCardReady = useCallback((confirm: CardConfirm | null) => {
    cardConfirm.current = confirm;
    setCardReady(Boolean(confirm));
  }, []);

  async function finish(variables: ReturnType<typeof buildCheckoutVariables>) {
    const order = await placeOrder(variables);
    // The engine created the account with the order; the shopper arrives at the order logged in.
    // Without a username the engine made one from the e-mail address, which logs in as well.
    if (variables.account)
      await logInAfterCheckout(
        variables.account.username || (variables.billing?.email ?? ''),
        variables.account.password,
      );
    window.location.assign(orderReceivedPath(localePrefix, order));
  }

  /** Back from a bank's check (3-D Secure redirect): finish the order that was being placed. */
  async function resumeCardRedirect() {
    const params = new URLSearchParams(window.location.search);
    const intentId = params.get('payment_intent');
    if (!intentId) return;
    window.history.replaceState(null, '', window.location.pathname);
    const pending = takePendingCardCheckout();
    if (params.get('redirect_status') !== 'succeeded' || !pending) {
      setFormError(t('checkout.card.redirectFailed'));
      return;
    }
    setPlacing(true);
    try {
      await startSession().catch(() => {});
      await finish({
        ...pending,
        transactionId: intentId,
        isPaid: true,
        metaData: [{ key: '_stripe_payment_intent_id', value: intentId }],
      });
    } catch (error) {
      setFormError(messageOf(error, t));
      setPlacing(false);
    }
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (placing) return;
    setFormError('');
    const found = validateCheckout(withoutHiddenShipping(form, cart), {
      statesOf: (country) => states[country],
      gateways: gateways.map((g) => g.id),
      loggedIn,
      billingAddressHidden: billingAddressHidden(hideBillingForVirtual, cart),
    });
    setErrors(found);
    const first = firstInvalidField(found);
    if (first) {
      const target =
        first === 'paymentMethod'
          ? document.querySelector<HTMLElement>('input[name="paymentMethod"]')
          : document.getElementById(fieldId(first));
      target?.focus();
      setFormError(t('checkout.error.fixFields'));
      return;
    }
    setPlacing(true);
    try {
      // The button stays enabled while the cart refreshes in the background; instead the order waits
      // here for the destination to reach the engine and for every cart action to settle, and is built
      // from the cart as it is then (rates and totals may have changed).
      await syncDestination();
      await syncVatId();
      await cartSettled();
      const settledCart = $engineCart.get();
      const options = { billingAddressHidden: billingAddressHidden(hideBillingForVirtual, settledCart) };
      const toSend = withoutHiddenShipping(form, settledCart);
      const base = buildCheckoutVariables(toSend, settledCart, {}, options);
      if (gatewayKind(form.paymentMethod) === 'card') {
        const confirm = cardConfirm.current;
        if (!confirm) throw new Error(t('checkout.card.notReady'));
        rememberPendingCardCheckout(base);
        const name = `${form.billing.firstName} ${form.billing.lastName}`.trim();
        const returnUrl = new URL(`${localePrefix}/checkout`, window.location.href).toString();
        const paid = await confirm(
          { name, email: form.billing.email.trim(), phone: form.billing.phone.trim() },
          returnUrl,
        );
        if (!paid.ok) throw new Error(paid.message || t('checkout.card.declined'));
        takePendingCardCheckout();
        await finish(
          buildCheckoutVariables(
            toSend,
            settledCart,
            { transactionId: paid.intentId, metaData: [{ key: '_stripe_payment_intent_id', value: paid.intentId }] },
            options,
          ),
        );
      } else {
        await finish(base);
      }
    } catch (error) {
      setFormError(messageOf(error, t));
      setPlacing(false);
    }
  };

  if (!mounted || (!cart && status !== 'error')) {
    return (
      <p role="status" className="py-16 text-center text-sm text-gray-700" data-checkout-loading>
        {t('checkout.loading')}
      </p>
    );
  }
  if (!cart || isCartEmpty(cart)) {
    return (
      <div className="mx-auto max-w-md py-16 text-center" data-checkout-empty>
        <p className="text-lg font-semibold text-gray-900">
          {status === 'error' ? t('cart.loadFailed') : t('checkout.empty.title')}
        </p>
        <p className="mt-2 text-sm text-gray-600">{t('checkout.empty.hint')}</p>
        <a
          href={`${localePrefix}/products`}
          className="mt-6 inline-block rounded-full bg-main px-5 py-2.5 text-sm font-semibold text-on-main"
        >
          {t('cart.empty.browse')}
        </a>
      </div>
    );
  }

  const chosenKind = gatewayKind(form.paymentMethod);
  const contactOnly = billingAddressHidden(hideBillingForVirtual, cart);
  // Nothing to ship (every item virtual): no shipping address to ask for.
  const shipsSomething = cart.needsShippingAddress !== false;
  const err = (path: string) => (errors[path] ? t(errors[path] as string) : undefined);

  return (
    <form onSubmit={submit} noValidate className="grid gap-10 lg:grid-cols-[minmax(0,1fr)_24rem]" data-checkout-form>
      <div className="space-y-10">
        <section aria-labelledby="checkout-billing">
          <h2 id="checkout-billing" className="mb-4 text-lg font-semibold text-gray-900">
            {t('checkout.billing.title')}
          </h2>
          {contactOnly && (
            <p className="mb-4 text-sm text-gray-700" data-billing-hidden>
              {t('checkout.billing.virtualHint')}
            </p>
          )}
          <AddressFields
            kind="billing"
            value={form.billing}
            onChange={(billing) => changeAddress('billing', billing)}
            errors={errors}
            t={t}
            lang={lang}
            contactOnly={contactOnly}
            vatIdNote={vatNote}
          />
        </section>

        {shipsSomething && (
          <section aria-labelledby="checkout-shipping">
            <h2 id="checkout-shipping" className="sr-only">
              {t('checkout.shipping.title')}
            </h2>
            <label className="inline-flex cursor-pointer items-center gap-2 text-sm font-medium text-gray-900">
              <input
                type="checkbox"
                checked={form.shipToDifferentAddress}
                onChange={(e) => update((f) => ({ ...f, shipToDifferentAddress: e.target.checked }))}
                className="size-4 accent-[rgb(var(--color-main))]"
              />
              {t('checkout.shipping.different')}
            </label>
            {form.shipToDifferentAddress && (
              <div className="mt-4">
                <AddressFields
                  kind="shipping"
                  value={form.shipping}
                  onChange={(shipping) => changeAddress('shipping', shipping)}
                  errors={errors}
                  t={t}
                  lang={lang}
                />
              </div>
            )}
          </section>
        )}

        <section aria-labelledby="checkout-note">
          <h2 id="checkout-note" className="sr-only">
            {t('checkout.note.title')}
          </h2>
          <Field path="customerNote" label={t('checkout.note.label')}>
            {(p) => (
              <textarea
                {...p}
                rows={3}
                maxLength={1000}
                placeholder={t('checkout.note.placeholder')}
                value={form.customerNote}
                onChange={(e) => update((f) => ({ ...f, customerNote: e.target.value }))}
              />
            )}
          </Field>
        </section>

        {!loggedIn && (
          <section aria-labelledby="checkout-account">
            <h2 id="checkout-account" className="sr-only">
              {t('checkout.account.title')}
            </h2>
            <label className="inline-flex cursor-pointer items-center gap-2 text-sm font-medium text-gray-900">
              <input
                type="checkbox"
                checked={form.createAccount}
                onChange={(e) => update((f) => ({ ...f, createAccount: e.target.checked }))}
                className="size-4 accent-[rgb(var(--color-main))]"
              />
              {t('checkout.account.create')}
            </label>
            {form.createAccount && (
              <div className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2">
                {/* Optional, as on the registration form: the engine makes one from the e-mail address. */}
                <Field
                  path="account.username"
                  label={t('checkout.field.optional', { label: t('checkout.account.username') })}
                  error={err('account.username')}
                >
                  {(p) => (
                    <>
                      <input
                        {...p}
                        autoComplete="username"
                        value={form.username}
                        aria-describedby={[p['aria-describedby'], 'checkout-account-username-hint']
                          .filter(Boolean)
                          .join(' ')}
                        onChange={(e) => {
                          clearErrors(['account.username']);
                          update((f) => ({ ...f, username: e.target.value }));
                        }}
                      />
                      <p id="checkout-account-username-hint" className="mt-1 text-xs text-gray-600">
                        {t('checkout.account.usernameHint')}
                      </p>
                    </>
                  )}
                </Field>
                <Field
                  path="account.password"
                  label={t('checkout.account.password')}
                  error={err('account.password')}
                  required
                >
                  {(p) => (
                    <input
                      {...p}
                      type="password"
                      autoComplete="new-password"
                      value={form.password}
                      onChange={(e) => {
                        clearErrors(['account.password']);
                        update((f) => ({ ...f, password: e.target.value }));
                      }}
                    />
                  )}
                </Field>
              </div>
            )}
          </section>
        )}

        <section aria-labelledby="checkout-payment">
          <h2 id="checkout-payment" className="mb-4 text-lg font-semibold text-gray-900">
            {t('checkout.payment.title')}
          </h2>
          {gateways.length === 0 ? (
            <p className="text-sm text-gray-700">{t('checkout.payment.none')}</p>
          ) : (
            <div
              role="radiogroup"
              aria-labelledby="checkout-payment"
              aria-describedby={errors.paymentMethod ? 'checkout-paymentMethod-error' : undefined}
              className="space-y-3"
            >
              {gateways.map((gateway) => {
                const kind = gatewayKind(gateway.id);
                const checked = form.paymentMethod === gateway.id;
                return (
                  <div
                    key={gateway.id}
                    className={`rounded-lg border p-4 ${checked ? 'border-main bg-main-tint/40' : 'border-gray-200'}`}
                    data-gateway={gateway.id}
                  >
                    <label className="flex cursor-pointer items-center gap-3 text-sm font-semibold text-gray-900">
                      <input
                        type="radio"
                        name="paymentMethod"
                        value={gateway.id}
                        checked={checked}
                        onChange={() => {
                          clearErrors(['paymentMethod']);
                          update((f) => ({ ...f, paymentMethod: gateway.id }));
                        }}
                        className="size-4 accent-[rgb(var(--color-main))]"
                      />
                      {gateway.title || t(`checkout.payment.${kind}`)}
                    </label>
                    {checked && (
                      <div className="mt-3 space-y-3 pl-7 text-sm text-gray-700">
                        {gateway.description && <p>{gateway.description}</p>}
                        {kind === 'crypto' && <p>{t('checkout.payment.cryptoHint')}</p>}
                        {kind === 'cod' && !gateway.description && <p>{t('checkout.payment.codHint')}</p>}
                        {kind === 'card' && (
                          <Suspense fallback={<p role="status">{t('checkout.card.loading')}</p>}>
                            <StripePayment
                              key={`${cart.rawTotal ?? ''}|${loggedIn}`}
                              t={t}
                              onReady={onCardReady}
                              loggedIn={loggedIn}
                            />
                          </Suspense>
                        )}
                      </div>
                    )}
                  </div>
                );
              })}
            </div>
          )}
          {errors.paymentMethod && (
            <p id="checkout-paymentMethod-error" className="mt-2 text-xs text-red-700" data-field-error="paymentMethod">
              {t(errors.paymentMethod)}
            </p>
          )}
        </section>
      </div>

      <aside
        aria-labelledby="checkout-review"
        className="h-fit space-y-5 rounded-xl border border-gray-200 bg-gray-50 p-5 lg:sticky lg:top-24"
      >
        <h2 id="checkout-review" className="text-lg font-semibold text-gray-900">
          {t('checkout.review.title')}
        </h2>
        <ul className="divide-y divide-gray-200" aria-label={t('cart.items')}>
          {cartLines(cart).map((item) => (
            <CartLine
              key={item.key}
              item={item}
              t={t}
              localePrefix={localePrefix}
              includeTax={cart.displayPricesIncludeTax === true}
            />
          ))}
        </ul>
        <CouponForm cart={cart} t={t} />
        <ShippingChoice cart={cart} t={t} />
        <CartTotals cart={cart} t={t} vatExempt={customer?.isVatExempt === true} />
        {formError && (
          <div
            role="alert"
            className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
            data-checkout-error
          >
            {formError}
          </div>
        )}
        <button
          type="submit"
          disabled={placing || (chosenKind === 'card' && !cardReady)}
          aria-busy={placing || busy}
          className="w-full rounded-full bg-main px-5 py-3 text-base font-semibold text-on-main shadow-sm hover:brightness-110 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-main disabled:cursor-not-allowed disabled:opacity-60"
          data-place-order
        >
          {placing ? t('checkout.placing') : t('checkout.placeOrder', { total: cart.total ?? '' })}
        </button>
      </aside>
    </form>
  );
}
