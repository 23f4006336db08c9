/**
 * The cart's building blocks, shared by the drawer and the checkout's order review: a line with its
 * quantity stepper, the coupon form and applied coupons, the shipping choice and the totals.
 * Components only read props and call the actions in src/stores/cart-actions.ts.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { CartFragment as Cart } from '../../graphql/generated/operations';
import type { CartItem } from '../../graphql/shapes';
import { getImage, localiseImageUrl, PLACEHOLDER_IMAGE } from '../../lib/image/helper';
import type { Lookup } from '../../lib/i18n/lookup';
import { applyCoupon, changeShippingMethod, removeCoupon, removeItem, updateQuantity } from '../../stores/cart-actions';
import { engineMessage } from '../../stores/engine-message';
import {
  itemChoices,
  itemImage,
  itemName,
  itemSlug,
  lineDisplay,
  parseQuantity,
  shippingPackages,
  totalsRows,
} from './cart-view';

const noop = () => {};

export function CartLine({
  item,
  t,
  localePrefix,
  editable = true,
  includeTax = false,
}: {
  item: CartItem;
  t: Lookup;
  localePrefix: string;
  editable?: boolean;
  /** The cart shows prices including tax (Cart.displayPricesIncludeTax). */
  includeTax?: boolean;
}) {
  const name = itemName(item);
  const slug = itemSlug(item);
  const image = itemImage(item);
  const choices = itemChoices(item);
  const quantity = item.quantity ?? 0;
  const [draft, setDraft] = useState(String(quantity));
  const inputId = useId();
  useEffect(() => setDraft(String(quantity)), [quantity]);

  const commit = (next: number) => {
    if (next === quantity) {
      setDraft(String(quantity));
      return;
    }
    // Errors are shown by the alert banner; the line keeps the engine's quantity.
    updateQuantity(item.key, next).catch(() => setDraft(String(quantity)));
  };

  const { amount, unit: unitPrice } = lineDisplay(item, includeTax);
  return (
    <li className="flex gap-3 py-4" data-cart-line={item.key}>
      <img
        src={getImage(localiseImageUrl(image.src) || PLACEHOLDER_IMAGE, { preset: 'thumbnail' }).url}
        alt={image.alt}
        width={72}
        height={72}
        loading="lazy"
        className="size-18 shrink-0 rounded-md bg-gray-100 object-contain"
      />
      <div className="min-w-0 flex-1">
        <div className="flex items-start justify-between gap-2">
          {slug ? (
            <a
              href={`${localePrefix}/product/${encodeURIComponent(slug)}`}
              className="font-medium text-gray-900 hover:text-main"
            >
              {name}
            </a>
          ) : (
            <span className="font-medium text-gray-900">{name}</span>
          )}
          <span className="shrink-0 text-sm font-semibold text-gray-900" data-line-total>
            {amount}
          </span>
        </div>
        {choices && (
          <p className="mt-0.5 text-xs text-gray-600" data-line-choices>
            {choices}
          </p>
        )}
        {unitPrice && <p className="mt-0.5 text-xs text-gray-600">{t('cart.unitPrice', { price: unitPrice })}</p>}
        {editable ? (
          <div className="mt-2 flex items-center gap-3">
            <div className="inline-flex items-center rounded-md border border-gray-300">
              <button
                type="button"
                onClick={() => commit(quantity - 1)}
                aria-label={quantity <= 1 ? t('cart.removeItem', { name }) : t('cart.decrease', { name })}
                className="grid size-8 place-items-center text-gray-700 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-main"
              >
                −
              </button>
              <label htmlFor={inputId} className="sr-only">
                {t('cart.quantityOf', { name })}
              </label>
              <input
                id={inputId}
                inputMode="numeric"
                pattern="[0-9]*"
                value={draft}
                onChange={(e) => setDraft(e.target.value)}
                onBlur={() => commit(parseQuantity(draft, quantity))}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    commit(parseQuantity(draft, quantity));
                  }
                }}
                className="h-8 w-10 border-x border-gray-300 text-center text-sm text-gray-900 focus:outline-2 focus:outline-main"
              />
              <button
                type="button"
                onClick={() => commit(quantity + 1)}
                aria-label={t('cart.increase', { name })}
                className="grid size-8 place-items-center text-gray-700 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-main"
              >
                +
              </button>
            </div>
            <button
              type="button"
              onClick={() => removeItem(item.key).catch(noop)}
              className="text-xs font-medium text-gray-600 underline-offset-2 hover:text-red-700 hover:underline"
              aria-label={t('cart.removeItem', { name })}
            >
              {t('cart.remove')}
            </button>
          </div>
        ) : (
          <p className="mt-1 text-xs text-gray-600">{t('cart.quantity', { count: quantity })}</p>
        )}
      </div>
    </li>
  );
}

export function CouponForm({ cart, t }: { cart: Cart; t: Lookup }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const inputId = useId();
  const applied = (cart.appliedCoupons ?? []).filter((coupon) => coupon !== null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setError(t('cart.coupon.required'));
      return;
    }
    setBusy(true);
    setError('');
    try {
      await applyCoupon(code);
      setCode('');
    } catch (e) {
      setError(engineMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="space-y-2">
      {applied.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label={t('cart.coupon.applied')}>
          {applied.map((coupon) => (
            <li
              key={coupon.code}
              className="inline-flex items-center gap-1 rounded-full bg-main-tint px-3 py-1 text-xs font-semibold text-gray-900"
              data-coupon={coupon.code}
            >
              <span>{coupon.code.toUpperCase()}</span>
              <span className="font-normal text-gray-700">
                −{(cart.displayPricesIncludeTax && coupon.discountAmountWithTax) || coupon.discountAmount}
              </span>
              <button
                type="button"
                onClick={() => removeCoupon(coupon.code).catch(noop)}
                aria-label={t('cart.coupon.remove', { code: coupon.code.toUpperCase() })}
                className="ml-1 grid size-5 place-items-center rounded-full hover:bg-white focus-visible:outline-2 focus-visible:outline-main"
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={submit} className="flex gap-2" noValidate>
        <label htmlFor={inputId} className="sr-only">
          {t('cart.coupon.label')}
        </label>
        <input
          id={inputId}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          placeholder={t('cart.coupon.placeholder')}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${inputId}-error` : undefined}
          className="min-w-0 flex-1 rounded-md border border-gray-300 px-3 py-2 text-sm text-gray-900 focus:outline-2 focus:outline-main"
        />
        <button
          type="submit"
          disabled={busy}
          className="rounded-md border border-gray-300 px-3 py-2 text-sm font-medium text-gray-900 hover:bg-gray-50 disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-main"
        >
          {busy ? t('cart.coupon.applying') : t('cart.coupon.apply')}
        </button>
      </form>
      {error && (
        <p id={`${inputId}-error`} role="alert" className="text-xs text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

export function ShippingChoice({ cart, t }: { cart: Cart; t: Lookup }) {
  const packages = shippingPackages(cart).filter((p) => p.rates.length > 0);
  const groupId = useId();
  // The choice shows at once; the engine's answer (or a failure) settles it.
  const [picked, setPicked] = useState<Record<number, string>>({});
  if (packages.length === 0) return null;
  const choose = (rateId: string, index: number) => {
    setPicked((current) => ({ ...current, [index]: rateId }));
    changeShippingMethod(rateId, index)
      .catch(noop)
      .finally(() =>
        setPicked((current) => {
          const { [index]: _settled, ...rest } = current;
          return rest;
        }),
      );
  };
  return (
    <div className="space-y-3">
      {packages.map((pkg) => (
        <fieldset key={pkg.index}>
          <legend className="mb-1 text-sm font-semibold text-gray-900">
            {packages.length > 1 && pkg.details
              ? t('cart.shipping.packageNamed', { details: pkg.details })
              : t('cart.shipping.title')}
          </legend>
          <div className="space-y-1">
            {pkg.rates.map((rate) => (
              <label
                key={rate.id}
                className="flex cursor-pointer items-center justify-between gap-3 rounded-md px-2 py-1.5 text-sm hover:bg-gray-50"
              >
                <span className="inline-flex items-center gap-2">
                  <input
                    type="radio"
                    name={`${groupId}-${pkg.index}`}
                    value={rate.id}
                    checked={(picked[pkg.index] ?? pkg.chosen) === rate.id}
                    onChange={() => choose(rate.id, pkg.index)}
                    className="accent-[rgb(var(--color-main))]"
                  />
                  {rate.label}
                </span>
                <span className="text-gray-700">{rate.cost}</span>
              </label>
            ))}
          </div>
        </fieldset>
      ))}
    </div>
  );
}

/**
 * The totals. With prices shown including tax the total is followed by the tax it includes, as
 * WooCommerce shows it; a business whose VAT is reverse charged (`vatExempt`) is told why there is none.
 */
export function CartTotals({ cart, t, vatExempt = false }: { cart: Cart; t: Lookup; vatExempt?: boolean }) {
  return (
    <dl className="space-y-1 text-sm" data-cart-totals>
      {totalsRows(cart).map((row) =>
        row.key === 'includedTax' ? (
          <div key={row.key} data-total={row.key} className="text-right text-xs text-gray-600">
            <dt className="sr-only">{t('cart.totals.tax')}</dt>
            <dd>{t('cart.totals.includedTax', { amount: row.value })}</dd>
          </div>
        ) : (
          <div
            key={row.key}
            data-total={row.key}
            className={`flex justify-between gap-4 ${row.key === 'total' ? 'border-t border-gray-200 pt-2 text-base font-semibold text-gray-900' : 'text-gray-700'}`}
          >
            <dt>{t(`cart.totals.${row.key}`)}</dt>
            <dd>{row.value}</dd>
          </div>
        ),
      )}
      {vatExempt && (
        <div data-total="reverseCharge" className="text-xs text-gray-600">
          <dt className="sr-only">{t('cart.totals.tax')}</dt>
          <dd>{t('cart.totals.reverseCharge')}</dd>
        </div>
      )}
    </dl>
  );
}
