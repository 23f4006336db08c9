/** `coupons list | create | expire`: coupon codes from the shell. Amounts in euros; percent coupons in percent. */
import { parseArgs } from 'node:util';
import type { CouponRow } from '../../coupons/operator.ts';
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

const SUBS = ['list', 'create', 'expire'];

const amountText = (c: CouponRow) =>
  c.discountType === 'percent' ? `${c.amountCents / 100}%` : eurosText(c.amountCents);

export const couponsCommand: CliCommand = {
  summary: 'list, create or expire coupons',
  usage: `coupons list [--search TEXT]
    coupons create CODE --type percent|fixed_cart|fixed_product --amount 10 [--expires YYYY-MM-DD]
                   [--usage-limit N] [--per-customer N] [--minimum 50.00] [--free-shipping] [--description TEXT]
                   (--amount is percent for percent coupons, euros otherwise)
    coupons expire CODE`,
  async run(argv, ctx) {
    const [sub, rest] = subcommand(argv, SUBS);
    const { values, positionals } = parseArgs({
      args: rest,
      options: {
        search: { type: 'string' },
        type: { type: 'string' },
        amount: { type: 'string' },
        expires: { type: 'string' },
        'usage-limit': { type: 'string' },
        'per-customer': { type: 'string' },
        minimum: { type: 'string' },
        'free-shipping': { type: 'boolean' },
        description: { type: 'string' },
      },
      strict: true,
      allowPositionals: true,
    });
    if (sub !== 'list' && positionals.length !== 1) throw new CliUsageError(`"coupons ${sub}" takes one coupon code.`);
    await withAdmin(ctx, async (admin) => {
      if (sub === 'list') {
        const r = await admin.coupons.list({ search: values.search, limit: 100, offset: 0 });
        const now = Date.now();
        ctx.io.out(
          r.rows.length
            ? table(
                ['code', 'type', 'amount', 'used', 'limit', 'expires'],
                r.rows.map((c) => [
                  c.code,
                  c.discountType,
                  amountText(c),
                  c.usageCount,
                  c.usageLimit ?? '∞',
                  c.expiresAt
                    ? `${c.expiresAt.toISOString().slice(0, 10)}${c.expiresAt.getTime() <= now ? ' (expired)' : ''}`
                    : 'never',
                ]),
              )
            : 'No coupons.',
        );
        return;
      }
      const code = positionals[0]!;
      if (sub === 'expire') {
        const c = await admin.coupons.getByCode(code);
        if (!c) throw new Error(`There is no coupon "${code}".`);
        await admin.coupons.expire(c.id);
        ctx.io.out(`Coupon ${c.code} has expired (used ${c.usageCount} times).`);
        return;
      }
      const type = values.type ?? '';
      if (!['percent', 'fixed_cart', 'fixed_product'].includes(type))
        throw new CliUsageError('--type is percent, fixed_cart or fixed_product.');
      if (values.amount === undefined) throw new CliUsageError('--amount is required.');
      const c = await admin.coupons.create({
        code,
        discountType: type as 'percent',
        // Percent amounts are hundredths of a percent: "12.5" percent parses like €12.50 → 1250.
        amountCents: euros(values.amount, '--amount'),
        expiresAt: values.expires ?? null,
        usageLimit: values['usage-limit'] ? positiveInt(values['usage-limit'], '--usage-limit') : null,
        usageLimitPerUser: values['per-customer'] ? positiveInt(values['per-customer'], '--per-customer') : null,
        minimumCents: values.minimum ? euros(values.minimum, '--minimum') : null,
        freeShipping: !!values['free-shipping'],
        description: values.description ?? '',
      });
      ctx.io.out(
        `Created coupon ${c.code}: ${amountText(c)} off (${c.discountType})${c.expiresAt ? `, expires ${c.expiresAt.toISOString().slice(0, 10)}` : ''}.`,
      );
    });
  },
};
