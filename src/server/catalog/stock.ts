/**
 * Stock changes of the catalog domain, for checkout and order cancellation. Each change is one
 * conditional UPDATE (`… set stock = stock - q where stock >= q`), so concurrent checkouts in any number
 * of processes can never take more than there is (unless backorders are allowed). Rows are locked in one
 * global order (variations by id, then products by id) so two carts never deadlock. Runs inside the
 * caller's transaction and bumps `stock_version` so every process refreshes its cached stock; the rows
 * it changed carry the new value, so that refresh reads only them (catalog/snapshot.ts refreshStock).
 */
import { eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/connection.ts';
import { bumpCounter } from '../db/meta.ts';
import { catalogProducts, catalogVariations } from './tables.ts';
import { text } from '../i18n/text.ts';
import { ShopperError } from '../i18n/shopper-error.ts';

export type StockLine = { productId: number; variationId: number | null; quantity: number; name: string };
export type StockTaken = { index: number; reduced: number; backordered: number };

export class StockError extends ShopperError {
  override name = 'StockError';
  constructor(
    readonly productName: string,
    readonly available: number,
  ) {
    super(
      available <= 0
        ? text('stock.outOfStock', { name: productName })
        : text('stock.notEnough', { name: productName, available }),
    );
  }
}

/** Take stock for every line; throws StockError (the caller's transaction then rolls everything back). */
export async function takeStock(tx: DbOrTx, lines: StockLine[]): Promise<StockTaken[]> {
  const taken: StockTaken[] = lines.map((_, index) => ({ index, reduced: 0, backordered: 0 }));
  // Quantities per stock-holding row (a cart may hold two lines of one variation with different data).
  const productLines = new Map<number, number[]>();
  const variationOrder = lines
    .map((l, i) => ({ l, i }))
    .filter((x) => x.l.variationId !== null)
    .sort((a, b) => a.l.variationId! - b.l.variationId! || a.i - b.i);
  const variationsTaken: number[] = [];
  for (const { l, i } of variationOrder) {
    const q = l.quantity;
    const rows = await tx
      .update(catalogVariations)
      .set({ stockQuantity: sql`${catalogVariations.stockQuantity} - ${q}` })
      .where(
        sql`${catalogVariations.id} = ${l.variationId} and ${catalogVariations.manageStock} and (${catalogVariations.backorders} <> 'no' or coalesce(${catalogVariations.stockQuantity}, 0) >= ${q})`,
      )
      .returning({ stock: catalogVariations.stockQuantity });
    if (rows.length) {
      variationsTaken.push(l.variationId!);
      const after = rows[0]!.stock ?? 0;
      taken[i] = { index: i, reduced: q, backordered: Math.min(q, Math.max(0, q - Math.max(after + q, 0))) };
      continue;
    }
    const [v] = await tx
      .select({
        manage: catalogVariations.manageStock,
        stock: catalogVariations.stockQuantity,
        status: catalogVariations.stockStatus,
      })
      .from(catalogVariations)
      .where(eq(catalogVariations.id, l.variationId!));
    if (!v) throw new StockError(l.name, 0);
    if (v.manage) throw new StockError(l.name, Math.max(v.stock ?? 0, 0));
    // Not managed on the variation: the parent's stock counts (WooCommerce "manage stock at product level").
    productLines.set(l.productId, [...(productLines.get(l.productId) ?? []), i]);
  }
  for (let i = 0; i < lines.length; i++)
    if (lines[i]!.variationId === null)
      productLines.set(lines[i]!.productId, [...(productLines.get(lines[i]!.productId) ?? []), i]);
  // Every product sold gets total_sales, locked in product id order together with its stock.
  const soldProducts = new Set(lines.map((l) => l.productId));
  for (const productId of [...soldProducts].sort((a, b) => a - b)) {
    const sold = lines.filter((l) => l.productId === productId).reduce((s, l) => s + l.quantity, 0);
    const stockIdx = productLines.get(productId) ?? [];
    const q = stockIdx.reduce((s, i) => s + lines[i]!.quantity, 0);
    const name = stockIdx.length ? lines[stockIdx[0]!]!.name : lines.find((l) => l.productId === productId)!.name;
    const rows = await tx
      .update(catalogProducts)
      .set({
        totalSales: sql`${catalogProducts.totalSales} + ${sold}`,
        stockQuantity: sql`case when ${catalogProducts.manageStock} then coalesce(${catalogProducts.stockQuantity}, 0) - ${q} else ${catalogProducts.stockQuantity} end`,
      })
      .where(
        sql`${catalogProducts.id} = ${productId} and (${q} = 0 or not ${catalogProducts.manageStock} or ${catalogProducts.backorders} <> 'no' or coalesce(${catalogProducts.stockQuantity}, 0) >= ${q})`,
      )
      .returning({
        manage: catalogProducts.manageStock,
        stock: catalogProducts.stockQuantity,
        status: catalogProducts.stockStatus,
      });
    if (!rows.length) {
      const [p] = await tx
        .select({ stock: catalogProducts.stockQuantity })
        .from(catalogProducts)
        .where(eq(catalogProducts.id, productId));
      throw new StockError(name, Math.max(p?.stock ?? 0, 0));
    }
    const r = rows[0]!;
    if (!stockIdx.length) continue;
    if (!r.manage) {
      if (r.status === 'outofstock') throw new StockError(name, 0);
      continue;
    }
    let before = (r.stock ?? 0) + q;
    for (const i of stockIdx) {
      const lq = lines[i]!.quantity;
      taken[i] = { index: i, reduced: lq, backordered: Math.min(lq, Math.max(0, lq - Math.max(before, 0))) };
      before -= lq;
    }
  }
  await markStockChanged(tx, { productIds: [...soldProducts], variationIds: variationsTaken });
  return taken;
}

/** Put back stock an order took (cancellation, failed payment). `quantity` is what was reduced per line. */
export async function restoreStock(
  tx: DbOrTx,
  lines: { productId: number; variationId: number | null; quantity: number }[],
): Promise<void> {
  const rows = lines.filter((l) => l.quantity > 0).map((l) => ({ ...l, onVariation: false }));
  if (!rows.length) return;
  for (const l of rows.filter((x) => x.variationId !== null).sort((a, b) => a.variationId! - b.variationId!)) {
    const updated = await tx
      .update(catalogVariations)
      .set({ stockQuantity: sql`coalesce(${catalogVariations.stockQuantity}, 0) + ${l.quantity}` })
      .where(sql`${catalogVariations.id} = ${l.variationId} and ${catalogVariations.manageStock}`)
      .returning({ id: catalogVariations.id });
    l.onVariation = updated.length > 0;
  }
  const byProduct = new Map<number, { stock: number; sales: number }>();
  for (const l of rows) {
    const e = byProduct.get(l.productId) ?? { stock: 0, sales: 0 };
    if (!l.onVariation) e.stock += l.quantity;
    e.sales += l.quantity;
    byProduct.set(l.productId, e);
  }
  for (const [productId, e] of [...byProduct].sort((a, b) => a[0] - b[0])) {
    await tx
      .update(catalogProducts)
      .set({
        totalSales: sql`greatest(${catalogProducts.totalSales} - ${e.sales}, 0)`,
        stockQuantity: sql`case when ${catalogProducts.manageStock} then coalesce(${catalogProducts.stockQuantity}, 0) + ${e.stock} else ${catalogProducts.stockQuantity} end`,
      })
      .where(eq(catalogProducts.id, productId));
  }
  await markStockChanged(tx, {
    productIds: [...byProduct.keys()],
    variationIds: rows.filter((l) => l.onVariation).map((l) => l.variationId!),
  });
}

/**
 * Announce a stock change (quantity, status or sales) of these products and variations: bump
 * `stock_version` and stamp the rows with its new value. Call it last in the transaction and name only
 * rows this transaction has already updated (and so locked): the counter row is always locked after the
 * catalog rows, so there is one lock order and no deadlock. The bump's lock hands out values in commit
 * order: a process that sees version N committed sees every row stamped up to N, and refreshes only rows
 * stamped after the version it holds.
 */
export async function markStockChanged(
  tx: DbOrTx,
  changed: { productIds?: number[]; variationIds?: number[] },
): Promise<void> {
  const version = await bumpCounter(tx, 'stock_version');
  const productIds = [...new Set(changed.productIds ?? [])];
  const variationIds = [...new Set(changed.variationIds ?? [])];
  if (productIds.length)
    await tx.update(catalogProducts).set({ stockVersion: version }).where(inArray(catalogProducts.id, productIds));
  if (variationIds.length)
    await tx
      .update(catalogVariations)
      .set({ stockVersion: version })
      .where(inArray(catalogVariations.id, variationIds));
}
