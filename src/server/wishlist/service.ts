/**
 * A logged-in customer's wishlist, kept on the server: product ids, newest first. The browser keeps a
 * guest's list; on login the storefront sends it with mergeWishlist and the two become one.
 */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { CatalogService } from '../catalog/service.ts';
import { AccountError } from '../customers/service.ts';
import type { Database } from '../db/connection.ts';
import { wishlistItems } from './tables.ts';

export const MAX_WISHLIST_ITEMS = 200;

export class WishlistService {
  constructor(
    private readonly db: Database,
    private readonly catalog: CatalogService,
  ) {}

  async productIds(userId: number): Promise<number[]> {
    const rows = await this.db
      .select({ id: wishlistItems.productId })
      .from(wishlistItems)
      .where(eq(wishlistItems.userId, userId))
      .orderBy(desc(wishlistItems.addedAt), desc(wishlistItems.productId));
    return rows.map((r) => r.id);
  }

  /** Published products only (a product unpublished later simply drops out of the list). */
  private async published(ids: number[]): Promise<number[]> {
    const snap = await this.catalog.snapshot();
    return ids.filter((id) => snap.productsById.get(id)?.status === 'publish');
  }

  async add(userId: number, productId: number): Promise<number[]> {
    if (!(await this.published([productId])).length)
      throw new AccountError('No product found matching the ID provided');
    const current = await this.productIds(userId);
    if (!current.includes(productId)) {
      if (current.length >= MAX_WISHLIST_ITEMS)
        throw new AccountError(`Your wishlist is full (at most ${MAX_WISHLIST_ITEMS} products). Remove one first.`);
      await this.db.insert(wishlistItems).values({ userId, productId }).onConflictDoNothing();
    }
    return this.productIds(userId);
  }

  async remove(userId: number, productId: number): Promise<number[]> {
    await this.db
      .delete(wishlistItems)
      .where(and(eq(wishlistItems.userId, userId), eq(wishlistItems.productId, productId)));
    return this.productIds(userId);
  }

  /** The browser's list joins the stored one (unknown products ignored, the cap kept). */
  async merge(userId: number, productIds: number[]): Promise<number[]> {
    const current = await this.productIds(userId);
    const room = MAX_WISHLIST_ITEMS - current.length;
    const fresh = (
      await this.published([...new Set(productIds)].filter((id) => Number.isSafeInteger(id) && !current.includes(id)))
    ).slice(0, Math.max(0, room));
    if (fresh.length) {
      // Older browser entries first, so the list keeps the browser's order (newest first) on top.
      const now = Date.now();
      await this.db
        .insert(wishlistItems)
        .values(fresh.map((productId, i) => ({ userId, productId, addedAt: new Date(now - i) })))
        .onConflictDoNothing();
    }
    return this.productIds(userId);
  }

  async clear(userId: number, productIds?: number[]): Promise<void> {
    await this.db
      .delete(wishlistItems)
      .where(
        productIds
          ? and(eq(wishlistItems.userId, userId), inArray(wishlistItems.productId, productIds))
          : eq(wishlistItems.userId, userId),
      );
  }

  async count(userId: number): Promise<number> {
    const [r] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(wishlistItems)
      .where(eq(wishlistItems.userId, userId));
    return r?.n ?? 0;
  }
}
