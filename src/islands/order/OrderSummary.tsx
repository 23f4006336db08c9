/**
 * One order, as /checkout/order-received/{orderId}?key=… and /order-summary/{orderId}?key=… show it:
 * the thank-you note, items, totals, addresses and payment; for a KDA order the amount, the payment
 * account with a QR code, the countdown and live progress (getOrder every 10 s until paid); download
 * links when the order permits them. Anyone holding the order key may see it (the link carries it);
 * without a key only the logged-in owner can. Anything else shows the same "could not find" message.
 */
import { useEffect, useState } from 'react';
import { request } from '../../graphql/client';
import { createLookup, type Strings } from '../../lib/i18n/lookup';
import { createPluralLookup } from '../../lib/i18n/plural';
import { getImage, localiseImageUrl, PLACEHOLDER_IMAGE } from '../../lib/image/helper';
import '../../stores/session';
import CryptoPayment from './CryptoPayment';
import {
  addressLines,
  isCryptoOrder,
  lineChoices,
  lineAmount,
  orderIdFromPath,
  orderLookups,
  orderMatches,
  orderTotalRows,
  shouldPoll,
  type ViewOrder,
} from './order-view';

export interface OrderSummaryProps {
  strings: Strings;
  localePrefix: string;
  /** BCP 47 tag ('de-DE') for dates and country names. */
  lang: string;
  /** From the route; read from the URL when absent. */
  orderId?: string;
  /** The order key (?key=); read from the URL when absent. */
  orderKey?: string;
  /** Poll interval for unpaid crypto orders. */
  pollMs?: number;
}

type Load = { state: 'loading' } | { state: 'missing' } | { state: 'ready'; order: ViewOrder; fetchedAt: number };

async function fetchOrder(orderId: string, key: string | null, signal: AbortSignal): Promise<ViewOrder | null> {
  for (const call of orderLookups(orderId, key)) {
    try {
      const { order } = await request('getOrder', call, { signal });
      if (order && orderMatches(order, orderId)) return order;
    } catch (error) {
      if (signal.aborted) throw error;
      // Not allowed or not found: try the next way, then give the one neutral message.
    }
  }
  return null;
}

export default function OrderSummary({
  strings,
  localePrefix,
  lang,
  orderId: givenId,
  orderKey: givenKey,
  pollMs = 10_000,
}: OrderSummaryProps) {
  const t = createLookup(strings);
  const tn = createPluralLookup(strings, lang);
  const [load, setLoad] = useState<Load>({ state: 'loading' });

  useEffect(() => {
    const orderId =
      givenId ||
      orderIdFromPath(window.location.pathname) ||
      new URLSearchParams(window.location.search).get('order') ||
      '';
    const key = givenKey || new URLSearchParams(window.location.search).get('key');
    if (!orderId) {
      setLoad({ state: 'missing' });
      return;
    }
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async (first: boolean) => {
      try {
        const order = await fetchOrder(orderId, key, controller.signal);
        if (controller.signal.aborted) return;
        if (!order) {
          // A poll that fails keeps showing the last known state and tries again.
          if (first) setLoad({ state: 'missing' });
          else timer = setTimeout(() => run(false), pollMs);
          return;
        }
        setLoad({ state: 'ready', order, fetchedAt: Date.now() });
        if (shouldPoll(order)) timer = setTimeout(() => run(false), pollMs);
      } catch {
        if (!controller.signal.aborted && first) setLoad({ state: 'missing' });
      }
    };
    run(true);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [givenId, givenKey, pollMs]);

  if (load.state === 'loading') {
    return (
      <p role="status" className="py-16 text-center text-sm text-gray-700">
        {t('order.loading')}
      </p>
    );
  }
  if (load.state === 'missing') {
    return (
      <div className="mx-auto max-w-lg py-16 text-center" role="alert" data-order-missing>
        <p className="text-lg font-semibold text-gray-900">{t('order.notFound')}</p>
        <a href={`${localePrefix}/order-summary`} className="mt-6 inline-block text-sm font-medium text-main underline">
          {t('order.lookupLink')}
        </a>
      </div>
    );
  }

  const { order } = load;
  const dateFormat = new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeStyle: 'short' });
  let regionNames: Intl.DisplayNames | null = null;
  try {
    regionNames = new Intl.DisplayNames([lang], { type: 'region' });
  } catch {
    regionNames = null;
  }
  const countryName = (code: string) => regionNames?.of(code) ?? code;
  const billing = [
    ...addressLines(order.billing, countryName),
    ...(order.vatId ? [t('order.vatId', { vatId: order.vatId })] : []),
  ];
  const shipping = addressLines(order.shipping, countryName);
  const invoices = order.invoices ?? [];
  const downloads = order.isDownloadPermitted ? (order.downloadableItems?.nodes ?? []).filter((d) => d.url) : [];

  return (
    <div className="space-y-8" data-order={order.databaseId ?? ''}>
      <div className="rounded-xl border border-green-200 bg-green-50 p-5">
        <p className="font-semibold text-green-900">{t('order.thankYou')}</p>
      </div>

      <dl className="grid grid-cols-2 gap-4 rounded-xl border border-gray-200 p-5 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-gray-600">{t('order.number')}</dt>
          <dd className="font-semibold text-gray-900" data-order-number>
            {order.orderNumber ?? order.databaseId}
          </dd>
        </div>
        <div>
          <dt className="text-gray-600">{t('order.date')}</dt>
          <dd className="font-semibold text-gray-900">{order.date ? dateFormat.format(new Date(order.date)) : ''}</dd>
        </div>
        <div>
          <dt className="text-gray-600">{t('order.status')}</dt>
          <dd className="font-semibold text-gray-900" data-order-status={order.status ?? ''}>
            {order.status ? t(`order.statusName.${order.status}`) : ''}
          </dd>
        </div>
        <div>
          <dt className="text-gray-600">{t('order.paymentMethod')}</dt>
          <dd className="font-semibold text-gray-900">{order.paymentMethodTitle ?? order.paymentMethod}</dd>
        </div>
      </dl>

      {isCryptoOrder(order) && <CryptoPayment order={order} t={t} fetchedAt={load.fetchedAt} />}

      <section aria-labelledby="order-items">
        <h2 id="order-items" className="mb-3 text-lg font-semibold text-gray-900">
          {t('order.items')}
        </h2>
        <ul className="divide-y divide-gray-200 rounded-xl border border-gray-200">
          {(order.lineItems?.nodes ?? []).map((line) => {
            const image = line.variation?.node?.image?.sourceUrl
              ? line.variation.node.image
              : line.product?.node?.image;
            const choices = lineChoices(line);
            const name = line.product?.node?.name ?? line.variation?.node?.name ?? '';
            return (
              <li key={line.id} className="flex items-center gap-4 p-4" data-order-line>
                <img
                  src={getImage(localiseImageUrl(image?.sourceUrl) || PLACEHOLDER_IMAGE, { preset: 'thumbnail' }).url}
                  alt=""
                  width={56}
                  height={56}
                  loading="lazy"
                  className="size-14 shrink-0 rounded-md bg-gray-100 object-contain"
                />
                <div className="min-w-0 flex-1">
                  <p className="font-medium text-gray-900">{name}</p>
                  {choices && (
                    <p className="text-xs text-gray-600" data-line-choices>
                      {choices}
                    </p>
                  )}
                  <p className="text-xs text-gray-600">{t('cart.quantity', { count: line.quantity ?? 0 })}</p>
                </div>
                <span className="text-sm font-semibold text-gray-900" data-line-amount>
                  {lineAmount(line, order.pricesIncludeTax === true)}
                </span>
              </li>
            );
          })}
        </ul>
      </section>

      <dl className="ml-auto max-w-sm space-y-1 text-sm" data-order-totals>
        {orderTotalRows(order).map((row) =>
          row.key === 'includedTax' ? (
            <div key={row.key} data-total={row.key} className="text-right text-xs text-gray-600">
              <dt className="sr-only">{t('cart.totals.tax')}</dt>
              <dd>{t('cart.totals.includedTax', { amount: row.value })}</dd>
            </div>
          ) : (
            <Row key={row.key} name={row.key} label={t(`cart.totals.${row.key}`)} value={row.value} />
          ),
        )}
        {order.vatReverseCharge && (
          <div data-total="reverseCharge" className="text-xs text-gray-600">
            <dt className="sr-only">{t('cart.totals.tax')}</dt>
            <dd>{t('cart.totals.reverseCharge')}</dd>
          </div>
        )}
      </dl>

      {downloads.length > 0 && (
        <section aria-labelledby="order-downloads">
          <h2 id="order-downloads" className="mb-3 text-lg font-semibold text-gray-900">
            {t('order.downloads')}
          </h2>
          <ul className="space-y-2">
            {downloads.map((d) => (
              <li
                key={d.id}
                className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-gray-200 p-3 text-sm"
              >
                <span>
                  {d.product?.name ? `${d.product.name} — ` : ''}
                  {d.name}
                  {d.downloadsRemaining !== null && (
                    <span className="ml-2 text-xs text-gray-600">
                      {tn('order.downloadsLeft', d.downloadsRemaining)}
                    </span>
                  )}
                </span>
                <a
                  href={d.url as string}
                  className="rounded-md bg-main px-3 py-1.5 text-xs font-semibold text-on-main"
                  download
                >
                  {t('order.download')}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}

      {invoices.length > 0 && (
        <section aria-labelledby="order-invoices">
          <h2 id="order-invoices" className="mb-3 text-lg font-semibold text-gray-900">
            {t('invoice.documents')}
          </h2>
          <ul className="flex flex-wrap gap-2">
            {invoices.map((i) => (
              <li key={i.number}>
                <a
                  href={i.downloadUrl}
                  className="inline-block rounded-md border border-gray-300 px-3 py-1.5 text-sm font-semibold text-gray-900 hover:bg-gray-50"
                  download
                >
                  {t(i.kind === 'CREDIT_NOTE' ? 'invoice.downloadCreditNote' : 'invoice.download', {
                    number: i.number,
                  })}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}

      <div className="grid gap-6 sm:grid-cols-2">
        {billing.length > 0 && (
          <section aria-labelledby="order-billing">
            <h2 id="order-billing" className="mb-2 text-base font-semibold text-gray-900">
              {t('order.billingAddress')}
            </h2>
            <address className="text-sm not-italic text-gray-700">
              {billing.map((line, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: address lines can repeat (a company named like its owner) and never move
                <span key={i} className="block">
                  {line}
                </span>
              ))}
            </address>
          </section>
        )}
        {shipping.length > 0 && (
          <section aria-labelledby="order-shipping">
            <h2 id="order-shipping" className="mb-2 text-base font-semibold text-gray-900">
              {t('order.shippingAddress')}
            </h2>
            <address className="text-sm not-italic text-gray-700">
              {shipping.map((line, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: address lines can repeat (a company named like its owner) and never move
                <span key={i} className="block">
                  {line}
                </span>
              ))}
            </address>
          </section>
        )}
      </div>

      {order.customerNote && (
        <section aria-labelledby="order-note">
          <h2 id="order-note" className="mb-2 text-base font-semibold text-gray-900">
            {t('order.note')}
          </h2>
          <p className="whitespace-pre-line text-sm text-gray-700">{order.customerNote}</p>
        </section>
      )}
    </div>
  );
}

function Row({ name, label, value }: { name: string; label: string; value: string }) {
  const strong = name === 'total';
  return (
    <div
      data-total={name}
      className={`flex justify-between gap-4 ${strong ? 'border-t border-gray-200 pt-2 text-base font-semibold text-gray-900' : 'text-gray-700'}`}
    >
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
