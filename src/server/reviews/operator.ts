/**
 * Review moderation for store operators. With REVIEWS_REQUIRE_APPROVAL new reviews wait as `pending`;
 * approving publishes one, rejecting marks it `spam` (WordPress's word; kept for the record, never shown).
 * The rows are the catalog's (catalog/reviews.ts): a change that shows or hides a review bumps the catalog
 * version in the same transaction, so ratings and review counts in every process's snapshot (and the
 * response cache) follow.
 */
import {
  countReviews,
  listReviews,
  setReviewStatus,
  type ReviewStatus,
  type ReviewWithProduct,
} from '../catalog/reviews.ts';
import type { CatalogService } from '../catalog/service.ts';
import type { Database } from '../db/connection.ts';

export type { ReviewStatus };
export type ModeratedReview = ReviewWithProduct;

export class ReviewOperator {
  constructor(
    private readonly db: Database,
    private readonly catalog: CatalogService,
  ) {}

  async list(filter: {
    status?: ReviewStatus | null;
    productId?: number | null;
    limit: number;
    offset: number;
  }): Promise<{ total: number; rows: ModeratedReview[] }> {
    return listReviews(this.db, filter);
  }

  async countPending(): Promise<number> {
    return countReviews(this.db, 'pending');
  }

  /** Sets a review's status; null when there is no such review. */
  async moderate(id: number, status: ReviewStatus): Promise<ModeratedReview | null> {
    const result = await setReviewStatus(this.db, id, status);
    this.catalog.invalidate();
    return result;
  }
}
