/**
 * The catalog's review rows (catalog_reviews), which the snapshot reads for `reviews`, `averageRating` and
 * `reviewCount`. The reviews domain (shoppers' reviews, moderation) reads and writes them through these
 * functions: a change that shows or hides a review bumps the catalog version in the same transaction, so
 * every process's snapshot (and the response cache) follows. The caller invalidates its own snapshot.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../db/connection.ts';
import { bumpCounter } from '../db/meta.ts';
import { catalogProducts, catalogReviews } from './tables.ts';

export type ReviewStatus = 'approved' | 'pending' | 'spam';
export type ReviewRow = typeof catalogReviews.$inferSelect;
export type NewReview = Omit<typeof catalogReviews.$inferInsert, 'id'> & { status: 'approved' | 'pending' };
export type ReviewWithProduct = ReviewRow & { productName: string };

/** Has this e-mail address (any case) already written this text about this product? */
export async function hasReview(db: DbOrTx, productId: number, email: string, content: string): Promise<boolean> {
  const [dup] = await db
    .select({ id: catalogReviews.id })
    .from(catalogReviews)
    .where(
      and(
        eq(catalogReviews.productId, productId),
        sql`lower(${catalogReviews.email}) = ${email}`,
        eq(catalogReviews.content, content),
      ),
    );
  return Boolean(dup);
}

export async function addReview(db: Database, review: NewReview): Promise<ReviewRow> {
  return db.transaction(async (tx) => {
    const [r] = await tx.insert(catalogReviews).values(review).returning();
    // Only a published review changes what the catalog shows.
    if (review.status === 'approved') await bumpCounter(tx, 'catalog_version');
    return r!;
  });
}

export async function listReviews(
  db: DbOrTx,
  filter: { status?: ReviewStatus | null; productId?: number | null; limit: number; offset: number },
): Promise<{ total: number; rows: ReviewWithProduct[] }> {
  const parts = [];
  if (filter.status) parts.push(eq(catalogReviews.status, filter.status));
  if (filter.productId) parts.push(eq(catalogReviews.productId, filter.productId));
  const where = parts.length ? and(...parts) : undefined;
  const [c] = await db.select({ n: sql<number>`count(*)::int` }).from(catalogReviews).where(where);
  const rows = await db
    .select({ review: catalogReviews, productName: catalogProducts.name })
    .from(catalogReviews)
    .innerJoin(catalogProducts, eq(catalogProducts.id, catalogReviews.productId))
    .where(where)
    .orderBy(desc(catalogReviews.date), desc(catalogReviews.id))
    .limit(filter.limit)
    .offset(filter.offset);
  return { total: Number(c?.n ?? 0), rows: rows.map((r) => ({ ...r.review, productName: r.productName })) };
}

export async function countReviews(db: DbOrTx, status: ReviewStatus): Promise<number> {
  const [c] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(catalogReviews)
    .where(eq(catalogReviews.status, status));
  return Number(c?.n ?? 0);
}

/** Sets a review's status; null when there is no such review. */
export async function setReviewStatus(
  db: Database,
  id: number,
  status: ReviewStatus,
): Promise<ReviewWithProduct | null> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ status: catalogReviews.status })
      .from(catalogReviews)
      .where(eq(catalogReviews.id, id))
      .for('update');
    if (!before) return null;
    await tx.update(catalogReviews).set({ status }).where(eq(catalogReviews.id, id));
    // Only approved reviews are shown and counted: bump when that changes.
    if ((before.status === 'approved') !== (status === 'approved')) await bumpCounter(tx, 'catalog_version');
    const [row] = await tx
      .select({ review: catalogReviews, productName: catalogProducts.name })
      .from(catalogReviews)
      .innerJoin(catalogProducts, eq(catalogProducts.id, catalogReviews.productId))
      .where(eq(catalogReviews.id, id));
    return row ? { ...row.review, productName: row.productName } : null;
  });
}

/** Every review written with `email` (any status), newest first, with its product's name: a customer's data export. */
export async function reviewsWrittenBy(db: DbOrTx, email: string): Promise<ReviewWithProduct[]> {
  const rows = await db
    .select({ review: catalogReviews, productName: catalogProducts.name })
    .from(catalogReviews)
    .innerJoin(catalogProducts, eq(catalogProducts.id, catalogReviews.productId))
    .where(sql`lower(${catalogReviews.email}) = ${email.trim().toLowerCase()}`)
    .orderBy(desc(catalogReviews.date));
  return rows.map((r) => ({ ...r.review, productName: r.productName }));
}

/** The author a review keeps once its writer's personal data was erased (WordPress's word for it). */
export const ERASED_REVIEW_AUTHOR = 'Anonymous';

/**
 * Erasing a customer (src/server/privacy/erase.ts): the published reviews written from `email` stay, as
 * WordPress keeps erased commenters' comments, without the writer's name and address: their stars are
 * part of the product's rating other shoppers read, and the text is about the product. Reviews never
 * published (pending or spam) are deleted: nobody relies on them. Bumps the catalog version when a
 * shown review changed; the caller invalidates its own snapshot after the commit.
 */
export async function anonymiseReviewsBy(tx: DbOrTx, email: string): Promise<{ anonymised: number; deleted: number }> {
  const address = email.trim().toLowerCase();
  const byWriter = sql`lower(${catalogReviews.email}) = ${address}`;
  const deleted = await tx
    .delete(catalogReviews)
    .where(and(byWriter, sql`${catalogReviews.status} <> 'approved'`))
    .returning({ id: catalogReviews.id });
  const anonymised = await tx
    .update(catalogReviews)
    .set({ author: ERASED_REVIEW_AUTHOR, email: '' })
    .where(and(byWriter, eq(catalogReviews.status, 'approved')))
    .returning({ id: catalogReviews.id });
  if (anonymised.length) await bumpCounter(tx, 'catalog_version');
  return { anonymised: anonymised.length, deleted: deleted.length };
}
