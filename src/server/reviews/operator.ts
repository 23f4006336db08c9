/**
 * Review moderation for store operators. With REVIEWS_REQUIRE_APPROVAL new reviews wait as `pending`;
 * approving publishes one, rejecting marks it `spam` (WordPress's word; kept for the record, never shown).
 * A change that shows or hides a review bumps the catalog version in the same transaction, so ratings and
 * review counts in every process's snapshot (and the response cache) follow.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { CatalogService } from '../catalog/service.ts';
import { catalogProducts, catalogReviews } from '../catalog/tables.ts';
import type { Database } from '../db/connection.ts';
import { bumpCounter } from '../db/meta.ts';

export type ReviewStatus = 'approved' | 'pending' | 'spam';
export type ModeratedReview = typeof catalogReviews.$inferSelect & { productName: string };

export class ReviewOperator {
  constructor(
    private readonly db: Database,
    private readonly catalog: CatalogService,
  ) {}

  async list(filter: { status?: ReviewStatus | null; productId?: number | null; limit: number; offset: number }): Promise<{ total: number; rows: ModeratedReview[] }> {
    const parts = [];
    if (filter.status) parts.push(eq(catalogReviews.status, filter.status));
    if (filter.productId) parts.push(eq(catalogReviews.productId, filter.productId));
    const where = parts.length ? and(...parts) : undefined;
    const [c] = await this.db.select({ n: sql<number>`count(*)::int` }).from(catalogReviews).where(where);
    const rows = await this.db
      .select({ review: catalogReviews, productName: catalogProducts.name })
      .from(catalogReviews)
      .innerJoin(catalogProducts, eq(catalogProducts.id, catalogReviews.productId))
      .where(where)
      .orderBy(desc(catalogReviews.date), desc(catalogReviews.id))
      .limit(filter.limit)
      .offset(filter.offset);
    return { total: Number(c?.n ?? 0), rows: rows.map((r) => ({ ...r.review, productName: r.productName })) };
  }

  async countPending(): Promise<number> {
    const [c] = await this.db.select({ n: sql<number>`count(*)::int` }).from(catalogReviews).where(eq(catalogReviews.status, 'pending'));
    return Number(c?.n ?? 0);
  }

  /** Sets a review's status; null when there is no such review. */
  async moderate(id: number, status: ReviewStatus): Promise<ModeratedReview | null> {
    const result = await this.db.transaction(async (tx) => {
      const [before] = await tx.select({ status: catalogReviews.status }).from(catalogReviews).where(eq(catalogReviews.id, id)).for('update');
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
    this.catalog.invalidate();
    return result;
  }
}
