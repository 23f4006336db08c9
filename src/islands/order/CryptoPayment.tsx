/**
 * How to pay a KDA order: the amount, the order's payment account with a QR code, a countdown to the
 * end of the payment window and the unconfirmed/confirmed progress (the summary polls the order).
 */
import { useEffect, useState } from 'react';
import type { Lookup } from '../../lib/i18n/lookup';
import { cryptoProgress, formatCountdown, isPaid, paymentWindowEnd, type ViewOrder } from './order-view';

export default function CryptoPayment({
  order,
  t,
  fetchedAt,
}: {
  order: ViewOrder;
  t: Lookup /** When the order was read (ms), for timeoutValue. */;
  fetchedAt: number;
}) {
  const [qr, setQr] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [copied, setCopied] = useState(false);
  const end = paymentWindowEnd(order, fetchedAt);
  // A number, not the Date: a new Date every render must not restart the countdown.
  const endTime = end?.getTime() ?? null;
  const paid = isPaid(order);
  const progress = cryptoProgress(order);
  const currency = order.paymentCurrency || 'KDA';

  useEffect(() => {
    const address = order.paymentAddress;
    if (!address) return;
    let cancelled = false;
    import('qrcode')
      .then((QRCode) => QRCode.toDataURL(address, { margin: 1, width: 200, errorCorrectionLevel: 'M' }))
      .then((url) => !cancelled && setQr(url))
      .catch(() => !cancelled && setQr(null));
    return () => {
      cancelled = true;
    };
  }, [order.paymentAddress]);

  useEffect(() => {
    if (endTime === null || paid) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [endTime, paid]);

  const remaining = end ? end.getTime() - now : null;

  if (paid) {
    return (
      <section
        className="rounded-xl border border-green-200 bg-green-50 p-5"
        data-crypto-state="paid"
        aria-live="polite"
      >
        <p className="font-semibold text-green-800">{t('order.crypto.paid')}</p>
      </section>
    );
  }

  if (!order.paymentAddress || !order.cryptoAmount) {
    return (
      <section className="rounded-xl border border-gray-200 p-5" data-crypto-state="preparing">
        <p className="text-sm text-gray-700">{t('order.crypto.preparing')}</p>
      </section>
    );
  }

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(order.paymentAddress as string);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  };

  return (
    <section
      aria-labelledby="crypto-title"
      className="rounded-xl border border-main/40 bg-main-tint/30 p-5"
      data-crypto-state="waiting"
    >
      <h2 id="crypto-title" className="text-lg font-semibold text-gray-900">
        {t('order.crypto.title')}
      </h2>
      <div className="mt-4 flex flex-col gap-5 sm:flex-row">
        <div className="shrink-0">
          {qr ? (
            <img
              src={qr}
              alt={t('order.crypto.qrAlt')}
              width={200}
              height={200}
              className="rounded-md bg-white"
              data-crypto-qr
            />
          ) : (
            <div className="grid size-[200px] place-items-center rounded-md bg-white text-xs text-gray-500">
              {t('order.crypto.qrLoading')}
            </div>
          )}
        </div>
        <dl className="min-w-0 flex-1 space-y-3 text-sm">
          <div>
            <dt className="text-gray-600">{t('order.crypto.amount')}</dt>
            <dd className="text-xl font-semibold text-gray-900" data-crypto-amount>
              {order.cryptoAmount} {currency}
            </dd>
          </div>
          <div>
            <dt className="text-gray-600">{t('order.crypto.address')}</dt>
            <dd className="flex items-start gap-2">
              <code className="min-w-0 break-all rounded bg-white px-2 py-1 text-xs text-gray-900" data-crypto-address>
                {order.paymentAddress}
              </code>
              <button
                type="button"
                onClick={copy}
                className="shrink-0 rounded-md border border-gray-300 bg-white px-2 py-1 text-xs font-medium text-gray-800 hover:bg-gray-50"
              >
                {copied ? t('order.crypto.copied') : t('order.crypto.copy')}
              </button>
            </dd>
          </div>
          {remaining !== null && (
            <div>
              <dt className="text-gray-600">{t('order.crypto.timeLeft')}</dt>
              <dd className="font-mono text-lg font-semibold text-gray-900" data-crypto-countdown>
                {remaining > 0 ? formatCountdown(remaining) : t('order.crypto.expired')}
              </dd>
            </div>
          )}
        </dl>
      </div>
      <div className="mt-5 space-y-3" aria-live="polite">
        <Progress
          label={t('order.crypto.unconfirmed', { amount: order.receivedUnconfirmed ?? '0', currency })}
          percent={progress.unconfirmedPercent}
          name="unconfirmed"
          tone="bg-amber-500"
        />
        <Progress
          label={t('order.crypto.confirmed', { amount: order.receivedConfirmed ?? '0', currency })}
          percent={progress.confirmedPercent}
          name="confirmed"
          tone="bg-green-600"
        />
        <p className="text-xs text-gray-600">{t('order.crypto.hint')}</p>
      </div>
    </section>
  );
}

function Progress({ label, percent, name, tone }: { label: string; percent: number; name: string; tone: string }) {
  return (
    <div data-crypto-progress={name}>
      <div className="flex justify-between text-xs text-gray-700">
        <span>{label}</span>
        <span>{percent}%</span>
      </div>
      <div
        className="mt-1 h-2 overflow-hidden rounded-full bg-gray-200"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-label={label}
      >
        <div className={`h-full ${tone}`} style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
