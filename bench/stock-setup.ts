/**
 * Bench arrangement, run (with tsx) on the freshly seeded database before the engine starts: picks
 * simple, published, physical products of the synthetic catalog and sets their stock — one with exactly
 * RACE_STOCK units for the "200 checkouts against 20" row, the others with plenty for the checkout load.
 * Prints the chosen products as JSON on the last line of stdout.
 *
 *   tsx bench/stock-setup.ts 20            arrange (race product gets 20 units)
 *   tsx bench/stock-setup.ts check ID      print {"stock": N, "orders": M} for product ID (after the engine stopped:
 *                                          PGlite is one process's file)
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { getConfig } from '../src/server/config.ts';
import { createEngine } from '../src/server/engine/index.ts';
import { catalogProducts } from '../src/server/catalog/tables.ts';
import { bumpCounter } from '../src/server/db/meta.ts';

const checkId = process.argv[2] === 'check' ? Number(process.argv[3]) : null;
const RACE_STOCK = Number(process.argv[2] ?? 20);
const LOAD_PRODUCTS = 8;
const LOAD_STOCK = 10_000_000;

const engine = await createEngine(getConfig(), { seed: false, log: () => {} });
try {
  if (checkId !== null) {
    const [row] = await engine.database.db
      .select({ stock: catalogProducts.stockQuantity })
      .from(catalogProducts)
      .where(eq(catalogProducts.id, checkId));
    const items = await engine.database.db.execute(
      sql`select count(*)::int as n from order_items where product_id = ${checkId}`,
    );
    const orders = ((items as unknown as { rows?: { n: number }[] }).rows ?? (items as unknown as { n: number }[]))[0]!
      .n;
    console.log(JSON.stringify({ stock: row?.stock ?? null, orders }));
    process.exitCode = 0;
  } else await arrange();
} finally {
  await engine.close();
}

async function arrange() {
  const snap = await engine.catalog.snapshot();
  const candidates = snap.products.filter(
    (p) =>
      p.type === 'simple' &&
      p.status === 'publish' &&
      p.visibility === 'visible' &&
      !p.virtual &&
      p.regularPriceCents !== null,
  );
  if (candidates.length < LOAD_PRODUCTS + 1)
    throw new Error(
      `the catalog has only ${candidates.length} simple physical products; the bench needs ${LOAD_PRODUCTS + 1}`,
    );
  const race = candidates[0]!;
  const load = candidates.slice(1, 1 + LOAD_PRODUCTS);
  await engine.database.db.transaction(async (tx) => {
    await tx
      .update(catalogProducts)
      .set({ manageStock: true, stockQuantity: RACE_STOCK, backorders: 'no', stockStatus: 'instock' })
      .where(eq(catalogProducts.id, race.id));
    await tx
      .update(catalogProducts)
      .set({ manageStock: true, stockQuantity: LOAD_STOCK, backorders: 'no', stockStatus: 'instock' })
      .where(
        and(
          inArray(
            catalogProducts.id,
            load.map((p) => p.id),
          ),
        ),
      );
    // Stock management and backorders change, not only quantities: a catalog change.
    await bumpCounter(tx, 'catalog_version');
  });
  console.log(
    JSON.stringify({
      race: { id: race.id, slug: race.slug, name: race.name, stock: RACE_STOCK },
      load: load.map((p) => ({ id: p.id, slug: p.slug })),
    }),
  );
}
