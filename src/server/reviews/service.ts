/**
 * Product reviews written by shoppers (writeReview). Reviews live in the catalog's review table, which
 * the catalog snapshot reads for `reviews`, `averageRating` and `reviewCount`, and are written through
 * catalog/reviews.ts: a published review goes in together with a catalog-version bump in one
 * transaction, so every process's cached catalog (and the response cache) picks it up. Content is kept as plain text; the catalog escapes it when it
 * renders HTML. "Verified owner" = the logged-in author has a paid order containing the product.
 */
import { addReview, hasReview } from '../catalog/reviews.ts';
import type { CatalogService } from '../catalog/service.ts';
import { isEmail } from '../cart/address-validation.ts';
import { AccountError, type CustomerRow } from '../customers/service.ts';
import type { Database } from '../db/connection.ts';
import type { OrderService } from '../orders/service.ts';
import type { RateLimiter } from '../rate-limit/index.ts';
import { tooManyAttempts } from '../auth/service.ts';
import type { ReviewSettings } from './settings.ts';

export type WriteReviewInput = {
  rating?: number | null;
  commentOn?: number | null;
  content?: string | null;
  author?: string | null;
  authorEmail?: string | null;
};

export type WrittenReview = {
  id: number;
  productId: number;
  author: string;
  rating: number;
  content: string;
  date: Date;
  verified: boolean;
  status: 'approved' | 'pending';
};

const PAID = new Set(['processing', 'completed']);
export const MAX_REVIEW_LENGTH = 5000;

/** Plain text: no control characters except line breaks and tabs, Windows line ends normalised. */
function plainText(value: string, max: number): string {
  return value
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')
    .trim()
    .slice(0, max);
}

export class ReviewService {
  constructor(
    private readonly db: Database,
    private readonly catalog: CatalogService,
    private readonly orders: OrderService,
    private readonly limiter: RateLimiter,
    readonly settings: ReviewSettings,
  ) {}

  /** Did this customer buy the product (a paid order with a line for it or one of its variations)? */
  async isVerifiedOwner(userId: number, productId: number): Promise<boolean> {
    for (const order of await this.orders.listByCustomer(String(userId), 100)) {
      if (!PAID.has(order.status)) continue;
      if ((await this.orders.items(order.id)).some((i) => i.productId === productId)) return true;
    }
    return false;
  }

  async write(input: WriteReviewInput, viewer: CustomerRow | null, clientIp: string): Promise<WrittenReview> {
    const rating = input.rating;
    if (typeof rating !== 'number' || !Number.isInteger(rating) || rating < 1 || rating > 5)
      throw new AccountError('Please choose a rating from 1 to 5 stars.');
    const snap = await this.catalog.snapshot();
    const product = input.commentOn ? snap.productsById.get(input.commentOn) : undefined;
    if (product?.status !== 'publish') throw new AccountError('The ID of the node to comment on is invalid');
    if (!product.reviewsAllowed) throw new AccountError('Sorry, this post is closed to comments at the moment');
    const content = plainText(input.content ?? '', MAX_REVIEW_LENGTH + 1);
    if (!content) throw new AccountError('Please type your review.');
    if (content.length > MAX_REVIEW_LENGTH)
      throw new AccountError(`Your review is too long (at most ${MAX_REVIEW_LENGTH} characters).`);
    const author =
      plainText(input.author ?? '', 100).replace(/\s+/g, ' ') || (viewer ? viewer.displayName || viewer.username : '');
    const email = (input.authorEmail ?? '').trim().toLowerCase() || (viewer?.email ?? '');
    if (!author) throw new AccountError('Please enter your name.');
    if (!email || !isEmail(email)) throw new AccountError('Please enter a valid email address.');

    const limit = await this.limiter.consume({
      bucket: 'review:ip',
      key: clientIp,
      limit: this.settings.perIpPerHour,
      windowSeconds: 3600,
    });
    if (!limit.allowed) throw tooManyAttempts(limit.retryAfterSeconds);

    if (await hasReview(this.db, product.id, email, content))
      throw new AccountError('Duplicate comment detected; it looks as though you’ve already said that!');

    const verified = viewer ? await this.isVerifiedOwner(viewer.id, product.id) : false;
    const status = this.settings.requireApproval ? 'pending' : 'approved';
    const row = await addReview(this.db, {
      productId: product.id,
      author,
      email,
      rating,
      content,
      date: new Date(),
      verified,
      status,
    });
    if (status === 'approved') this.catalog.invalidate();
    return {
      id: row.id,
      productId: row.productId,
      author: row.author,
      rating: row.rating,
      content: row.content,
      date: row.date,
      verified: row.verified,
      status,
    };
  }
}
