/**
 * /order-summary without an id: order number + billing e-mail lead to that order's summary. The engine
 * answers a wrong number and a wrong e-mail the same way (and rate-limits attempts), and so does this
 * form: one neutral message, nothing that tells whether an order number exists.
 *
 * Engine operation used (see the lookup request below): `lookupOrder(orderNumber, email)` →
 * `{ lookupOrder: { orderId, orderKey } | null }`.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { request } from '../../graphql/client';
import { createLookup, type Strings } from '../../lib/i18n/lookup';
import '../../stores/session';
import { isValidEmail } from '../checkout/validation';
import { orderSummaryPath } from './order-view';

export interface OrderLookupProps {
  strings: Strings;
  localePrefix: string;
}

/** Order number + billing e-mail → the order's id and key, or null for any mismatch. */
export async function lookupOrder(
  orderNumber: string,
  email: string,
): Promise<{ orderId: number; orderKey: string } | null> {
  const { lookupOrder: found } = await request('lookupOrder', { orderNumber, email });
  return found?.orderId && found.orderKey ? { orderId: found.orderId, orderKey: found.orderKey } : null;
}

export default function OrderLookup({ strings, localePrefix }: OrderLookupProps) {
  const t = createLookup(strings);
  const id = useId();
  const [orderNumber, setOrderNumber] = useState('');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<{ number?: string; email?: string }>({});
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  // The form is in the page's HTML before this island runs: until then a click on the button would submit
  // the bare form (a reload that loses what was typed), so the button waits, as in the other forms; what
  // was typed meanwhile stays in the fields and is taken over once the island runs.
  const [hydrated, setHydrated] = useState(false);
  const numberField = useRef<HTMLInputElement>(null);
  const emailField = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (numberField.current?.value) setOrderNumber(numberField.current.value);
    if (emailField.current?.value) setEmail(emailField.current.value);
    setHydrated(true);
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: typeof errors = {};
    const number = orderNumber.trim().replace(/^#/, '');
    if (!number) found.number = t('checkout.error.required');
    if (!email.trim()) found.email = t('checkout.error.required');
    else if (!isValidEmail(email)) found.email = t('checkout.error.email');
    setErrors(found);
    setMessage('');
    if (found.number || found.email) {
      document.getElementById(found.number ? `${id}-number` : `${id}-email`)?.focus();
      return;
    }
    setBusy(true);
    try {
      const order = await lookupOrder(number, email.trim());
      if (!order) {
        setMessage(t('order.lookup.noMatch'));
        return;
      }
      window.location.assign(orderSummaryPath(localePrefix, { databaseId: order.orderId, orderKey: order.orderKey }));
    } catch (error) {
      // Rate limiting and other engine messages are shown as they are; anything unexpected gets the
      // same neutral text as a miss.
      const text =
        error instanceof Error && /too many/i.test(error.message) ? error.message : t('order.lookup.noMatch');
      setMessage(text);
    } finally {
      setBusy(false);
    }
  };

  const input =
    'mt-1 block w-full rounded-md border border-gray-300 px-3 py-2 text-sm text-gray-900 focus:outline-2 focus:outline-main aria-[invalid=true]:border-red-600';
  return (
    <form onSubmit={submit} noValidate className="max-w-md space-y-4" data-order-lookup>
      <p className="text-sm text-gray-700">{t('order.lookup.intro')}</p>
      <div>
        <label htmlFor={`${id}-number`} className="block text-sm font-medium text-gray-800">
          {t('order.lookup.number')}
        </label>
        <input
          ref={numberField}
          id={`${id}-number`}
          inputMode="numeric"
          autoComplete="off"
          value={orderNumber}
          onChange={(e) => setOrderNumber(e.target.value)}
          aria-invalid={errors.number ? true : undefined}
          aria-describedby={errors.number ? `${id}-number-error` : undefined}
          className={input}
        />
        {errors.number && (
          <p id={`${id}-number-error`} className="mt-1 text-xs text-red-700">
            {errors.number}
          </p>
        )}
      </div>
      <div>
        <label htmlFor={`${id}-email`} className="block text-sm font-medium text-gray-800">
          {t('order.lookup.email')}
        </label>
        <input
          ref={emailField}
          id={`${id}-email`}
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={errors.email ? `${id}-email-error` : undefined}
          className={input}
        />
        {errors.email && (
          <p id={`${id}-email-error`} className="mt-1 text-xs text-red-700">
            {errors.email}
          </p>
        )}
      </div>
      <p role="status" aria-live="polite" className="min-h-5 text-sm text-red-700" data-lookup-message>
        {message}
      </p>
      <button
        type="submit"
        disabled={busy || !hydrated}
        className="rounded-full bg-main px-6 py-2.5 text-sm font-semibold text-on-main hover:brightness-110 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-main disabled:opacity-60"
      >
        {busy ? t('order.lookup.searching') : t('order.lookup.submit')}
      </button>
    </form>
  );
}
