/** `products list | set-price | set-stock`: the quick catalog changes from the shell (by id or SKU). */
import { parseArgs } from 'node:util';
import { variationChoices } from '../../catalog/display-names.ts';
import { DEFAULT_LOCALE } from '../../../lib/i18n/locales.ts';
import { productStockStatus, stockStatusOf } from '../../catalog/pricing.ts';
import { matchesSearch } from '../../catalog/snapshot.ts';
import type { AdminService } from '../service.ts';
import {
  CliUsageError,
  euros,
  eurosText,
  subcommand,
  table,
  wholeNumber,
  withAdmin,
  type CliCommand,
} from './common.ts';

const SUBS = ['list', 'set-price', 'set-stock'];

/** A product or variation id, or a SKU (case-insensitive). */
async function resolveTarget(admin: AdminService, ref: string): Promise<{ id: number; label: string }> {
  const snap = await admin.engine.catalog.snapshot();
  if (/^\d+$/.test(ref)) {
    const id = Number(ref);
    const p = snap.productsById.get(id);
    if (p) return { id, label: `${p.name} (${p.sku})` };
    const v = snap.variationsById.get(id);
    if (v) return { id, label: `${v.product.name} – ${variationChoices(v, DEFAULT_LOCALE.code)} (${v.sku})` };
  }
  const lower = ref.toLowerCase();
  const p = snap.productsBySku.get(lower);
  if (p) return { id: p.id, label: `${p.name} (${p.sku})` };
  for (const v of snap.variationsById.values())
    if (v.sku.toLowerCase() === lower)
      return { id: v.id, label: `${v.product.name} – ${variationChoices(v, DEFAULT_LOCALE.code)} (${v.sku})` };
  throw new Error(`No product or variation with the id or SKU "${ref}".`);
}

export const productsCommand: CliCommand = {
  summary: 'list products, set a price or stock',
  usage: `products list [--search TEXT] [--status publish|draft|private] [--low-stock]
    products set-price ID_OR_SKU --regular 349.00 [--sale 299.00 | --no-sale] [--sale-from YYYY-MM-DD] [--sale-to YYYY-MM-DD]
    products set-stock ID_OR_SKU QUANTITY [--low-stock N] [--backorders no|notify|yes]`,
  async run(argv, ctx) {
    const [sub, rest] = subcommand(argv, SUBS);
    // --low-stock is a flag for list and takes a number for set-stock: each subcommand has its own options.
    const { values, positionals } =
      sub === 'list'
        ? parseArgs({
            args: rest,
            options: { search: { type: 'string' }, status: { type: 'string' }, 'low-stock': { type: 'boolean' } },
            strict: true,
            allowPositionals: true,
          })
        : sub === 'set-price'
          ? parseArgs({
              args: rest,
              options: {
                regular: { type: 'string' },
                sale: { type: 'string' },
                'no-sale': { type: 'boolean' },
                'sale-from': { type: 'string' },
                'sale-to': { type: 'string' },
              },
              strict: true,
              allowPositionals: true,
            })
          : parseArgs({
              args: rest,
              options: { 'low-stock': { type: 'string' }, backorders: { type: 'string' } },
              strict: true,
              allowPositionals: true,
            });
    const v = values as Record<string, string | boolean | undefined>;
    await withAdmin(ctx, async (admin) => {
      if (sub === 'list') {
        const lowOnly = v['low-stock'] === true;
        const status = (v.status as string | undefined)?.toLowerCase();
        if (status && !['publish', 'draft', 'private'].includes(status))
          throw new CliUsageError('--status is publish, draft or private.');
        const snap = await admin.engine.catalog.snapshot();
        const low = lowOnly ? new Set((await admin.lowStock(10_000)).map((i) => i.productId)) : null;
        const needle = (v.search as string | undefined)?.toLowerCase();
        const list = snap.products.filter(
          (p) =>
            (!needle || matchesSearch(p, needle, 'any')) && (!status || p.status === status) && (!low || low.has(p.id)),
        );
        ctx.io.out(
          list.length
            ? table(
                ['id', 'sku', 'name', 'status', 'price', 'sale', 'stock'],
                list.flatMap((p) => [
                  [
                    p.id,
                    p.sku,
                    p.name,
                    p.status,
                    eurosText(p.regularPriceCents),
                    p.salePriceCents === null ? '' : eurosText(p.salePriceCents),
                    p.manageStock ? String(p.stockQuantity ?? 0) : productStockStatus(p),
                  ],
                  ...p.variations.map((v) => [
                    v.id,
                    v.sku,
                    `  ${variationChoices(v, DEFAULT_LOCALE.code)}`,
                    '',
                    eurosText(v.regularPriceCents),
                    v.salePriceCents === null ? '' : eurosText(v.salePriceCents),
                    v.manageStock ? String(v.stockQuantity ?? 0) : stockStatusOf(v),
                  ]),
                ]),
              )
            : 'No products match.',
        );
        return;
      }
      if (!positionals.length) throw new CliUsageError(`"products ${sub}" needs a product id or SKU.`);
      const target = await resolveTarget(admin, positionals[0]!);
      if (sub === 'set-price') {
        if (positionals.length !== 1) throw new CliUsageError(`Unexpected argument "${positionals[1]}".`);
        if (v.sale !== undefined && v['no-sale']) throw new CliUsageError('Give --sale or --no-sale, not both.');
        if (v.regular === undefined && v.sale === undefined && !v['no-sale'] && !v['sale-from'] && !v['sale-to'])
          throw new CliUsageError('Give --regular, --sale, --no-sale or sale dates.');
        const kind = await admin.catalog.setPrice(target.id, {
          ...(v.regular !== undefined ? { regularPriceCents: euros(v.regular as string, '--regular') } : {}),
          ...(v.sale !== undefined ? { salePriceCents: euros(v.sale as string, '--sale') } : {}),
          ...(v['no-sale']
            ? {
                salePriceCents: null,
                ...((await admin.catalog.product(target.id)) ? { dateOnSaleFrom: null, dateOnSaleTo: null } : {}),
              }
            : {}),
          ...(v['sale-from'] !== undefined ? { dateOnSaleFrom: v['sale-from'] as string } : {}),
          ...(v['sale-to'] !== undefined ? { dateOnSaleTo: v['sale-to'] as string } : {}),
        });
        const snap = await admin.engine.catalog.snapshot();
        const now = kind === 'variation' ? snap.variationsById.get(target.id)! : snap.productsById.get(target.id)!;
        ctx.io.out(
          `${target.label}: regular ${eurosText(now.regularPriceCents)}${now.salePriceCents !== null ? `, sale ${eurosText(now.salePriceCents)}` : ', no sale'}.`,
        );
        return;
      }
      if (positionals.length !== 2)
        throw new CliUsageError('"products set-stock" takes the product and the new quantity.');
      const quantity = wholeNumber(positionals[1], 'The quantity', -1_000_000);
      const backorders = (v.backorders as string | undefined)?.toLowerCase();
      if (backorders && !['no', 'notify', 'yes'].includes(backorders))
        throw new CliUsageError('--backorders is no, notify or yes.');
      await admin.catalog.setStock(target.id, {
        manageStock: true,
        stockQuantity: quantity,
        ...(v['low-stock'] !== undefined
          ? { lowStockAmount: wholeNumber(v['low-stock'] as string, '--low-stock') }
          : {}),
        ...(backorders ? { backorders: backorders as 'no' } : {}),
      });
      ctx.io.out(`${target.label}: stock ${quantity}.`);
    });
  },
};
