/** `orders list | show | complete | hold | cancel | refund`: fulfil and refund orders from the shell. */
import { parseArgs } from 'node:util';
import type { AdminService } from '../service.ts';
import {
  CliUsageError,
  euros,
  eurosText,
  positiveInt,
  subcommand,
  table,
  withAdmin,
  type CliCommand,
} from './common.ts';

const SUBS = ['list', 'show', 'complete', 'hold', 'cancel', 'refund'];

async function show(admin: AdminService, id: number): Promise<string> {
  const o = await admin.order(id);
  const [items, notes, refunds] = await Promise.all([
    admin.engine.orders.items(id),
    admin.engine.orders.notes(id),
    admin.orders.refunds(id),
  ]);
  const b = o.billing;
  return [
    `Order ${o.id}  ${o.status}  ${o.dateCreated.toISOString()}`,
    `Customer: ${[b.firstName, b.lastName].filter(Boolean).join(' ')} <${b.email}>${/^\d+$/.test(o.customerId) ? ` (user ${o.customerId})` : ' (guest)'}`,
    `Payment:  ${o.paymentMethodTitle}${o.transactionId ? ` (${o.transactionId})` : ''}`,
    `Ship to:  ${[o.shipping.address1 || b.address1, o.shipping.postcode || b.postcode, o.shipping.city || b.city, o.shipping.country || b.country].filter(Boolean).join(', ')}`,
    '',
    table(
      ['qty', 'item', 'sku', 'total'],
      items.map((i) => [i.quantity, i.name, i.sku, eurosText(i.totalCents)]),
    ),
    '',
    `Subtotal ${eurosText(o.subtotalCents)}  discount ${eurosText(o.discountCents)}  shipping ${eurosText(o.shippingCents)}  tax ${eurosText(o.totalTaxCents)}  total ${eurosText(o.totalCents)}`,
    ...(refunds.length
      ? [
          '',
          'Refunds:',
          ...refunds.map(
            (r) =>
              `  ${r.createdAt.toISOString()}  ${eurosText(r.amountCents)}  ${r.method}  ${r.status}${r.stripeRefundId ? `  ${r.stripeRefundId}` : ''}${r.reason ? `  ${r.reason}` : ''}`,
          ),
        ]
      : []),
    ...(notes.length ? ['', 'Notes:', ...notes.map((n) => `  ${n.createdAt.toISOString()}  ${n.note}`)] : []),
  ].join('\n');
}

export const ordersCommand: CliCommand = {
  summary: 'list, show, complete, hold, cancel or refund orders',
  usage: `orders list [--status processing,on-hold] [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--customer TEXT] [--limit N]
    orders show ID
    orders complete ID [--tracking NUMBER] [--carrier NAME] [--tracking-url URL] [--note TEXT] [--no-email]
    orders hold ID [--note TEXT]
    orders cancel ID [--note TEXT]              (stock and coupon uses go back)
    orders refund ID [--amount 12.50] [--reason TEXT] [--key KEY]
                     no --amount: all that is left; card orders through Stripe. Repeating the same
                     command refunds nothing more (the key defaults to order + amount); give another
                     --key for a second refund of the same amount.`,
  async run(argv, ctx) {
    const [sub, rest] = subcommand(argv, SUBS);
    const { values, positionals } = parseArgs({
      args: rest,
      options: {
        status: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        customer: { type: 'string' },
        limit: { type: 'string' },
        tracking: { type: 'string' },
        carrier: { type: 'string' },
        'tracking-url': { type: 'string' },
        note: { type: 'string' },
        'no-email': { type: 'boolean' },
        amount: { type: 'string' },
        reason: { type: 'string' },
        key: { type: 'string' },
      },
      strict: true,
      allowPositionals: true,
    });
    const allowed: Record<string, string[]> = {
      list: ['status', 'from', 'to', 'customer', 'limit'],
      show: [],
      complete: ['tracking', 'carrier', 'tracking-url', 'note', 'no-email'],
      hold: ['note'],
      cancel: ['note'],
      refund: ['amount', 'reason', 'key'],
    };
    for (const k of Object.keys(values))
      if (!allowed[sub]!.includes(k)) throw new CliUsageError(`--${k} does not apply to "orders ${sub}".`);
    if (sub === 'list') {
      if (positionals.length) throw new CliUsageError(`Unexpected argument "${positionals[0]}".`);
    } else if (positionals.length !== 1) throw new CliUsageError(`"orders ${sub}" takes one order number.`);
    const id = sub === 'list' ? 0 : positiveInt(positionals[0], 'The order number');
    await withAdmin(ctx, async (admin) => {
      switch (sub) {
        case 'list': {
          const limit = values.limit ? positiveInt(values.limit, '--limit') : 50;
          const r = await admin.listOrders({
            statuses: values.status
              ? values.status
                  .split(',')
                  .map((s) => s.trim())
                  .filter(Boolean)
              : [],
            dateFrom: values.from,
            dateTo: values.to,
            customer: values.customer,
            first: Math.min(limit, 100),
          });
          ctx.io.out(
            r.rows.length
              ? table(
                  ['order', 'date', 'status', 'customer', 'total', 'payment'],
                  r.rows.map((o) => [
                    o.id,
                    o.dateCreated.toISOString().slice(0, 16).replace('T', ' '),
                    o.status,
                    o.billing.email,
                    eurosText(o.totalCents),
                    o.paymentMethod,
                  ]),
                )
              : 'No orders match.',
          );
          if (r.total > r.rows.length) ctx.io.out(`(${r.rows.length} of ${r.total} shown)`);
          return;
        }
        case 'show':
          ctx.io.out(await show(admin, id));
          return;
        case 'complete': {
          const r = await admin.moveOrder(
            {
              orderId: id,
              status: 'completed',
              trackingNumber: values.tracking,
              trackingCarrier: values.carrier,
              trackingUrl: values['tracking-url'],
              note: values.note,
              notifyCustomer: !values['no-email'],
            },
            'cli',
          );
          ctx.io.out(
            `Order ${id} is completed.${r.mailed ? ` The customer was e-mailed at ${r.order.billing.email}.` : values['no-email'] ? '' : ' The customer e-mail did not go out at the first try; it stays queued and is retried (mail that keeps failing is listed in /admin/mail).'}`,
          );
          return;
        }
        case 'hold':
          await admin.moveOrder({ orderId: id, status: 'on-hold', note: values.note }, 'cli');
          ctx.io.out(`Order ${id} is on hold.`);
          return;
        case 'cancel':
          await admin.moveOrder({ orderId: id, status: 'cancelled', note: values.note }, 'cli');
          ctx.io.out(`Order ${id} is cancelled; its stock is back.`);
          return;
        case 'refund': {
          const amountCents = values.amount !== undefined ? euros(values.amount, '--amount') : null;
          const key = values.key ?? `cli-${id}-${amountCents ?? 'rest'}`;
          const r = await admin.refund({ orderId: id, amountCents, reason: values.reason, idempotencyKey: key }, 'cli');
          if (r.replayed)
            ctx.io.out(
              `Already done: refund ${r.refund.id} of ${eurosText(r.refund.amountCents)} (${r.refund.status}) was made with key ${key}; nothing more was refunded. Use --key for another refund.`,
            );
          else
            ctx.io.out(
              `Refunded ${eurosText(r.refund.amountCents)} of order ${id} ${r.refund.method === 'stripe' ? `through Stripe (${r.refund.stripeRefundId})` : '(recorded; pay it back outside the shop)'}. Order status: ${r.order.status}.`,
            );
          return;
        }
      }
    });
  },
};
