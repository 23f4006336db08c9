/**
 * The review form's rules, as pure functions (tests/unit/review-form.test.ts): what a review needs
 * before it is sent, the WriteReview variables, and what the engine's answer means for the shopper.
 * The limits are the engine's (src/server/reviews/service.ts), so the form never lets through what
 * the engine would refuse, and never refuses what it would take.
 */
import { isValidEmail } from '../contact/email.ts';

export const MAX_REVIEW_LENGTH = 5000;
export const MAX_AUTHOR_LENGTH = 100;

export interface ReviewDraft {
  /** 1–5, or null while no star is chosen. */
  rating: number | null;
  content: string;
  author: string;
  email: string;
}

export type ReviewField = 'rating' | 'content' | 'author' | 'email';

/** Field → locale key of the message to show under it. */
export type ReviewErrors = Partial<Record<ReviewField, string>>;

/** The order the form shows its fields in, so the first error gets the focus. */
export const REVIEW_FIELDS: readonly ReviewField[] = ['rating', 'content', 'author', 'email'];

/** A star value from the form ('4' → 4); anything but a whole 1–5 is no rating. */
export function parseRating(value: unknown): number | null {
  const n =
    typeof value === 'string' && /^\d$/.test(value.trim()) ? Number(value) : typeof value === 'number' ? value : NaN;
  return Number.isInteger(n) && n >= 1 && n <= 5 ? n : null;
}

/** The engine also wants a dot in the domain (name@host.tld). */
export function isReviewEmail(value: string): boolean {
  const v = value.trim();
  return isValidEmail(v) && /@[^@]+\.[^.@\s]{2,}$/.test(v);
}

/** Content length as the engine counts it: after trimming, with Windows line ends as one character. */
export function reviewLength(content: string): number {
  return content.replace(/\r\n?/g, '\n').trim().length;
}

/**
 * Problems with a draft. `emailRequired` is false for a logged-in customer whose address the viewer
 * store knows (the field is hidden and their address is sent).
 */
export function validateReview(draft: ReviewDraft, { emailRequired }: { emailRequired: boolean }): ReviewErrors {
  const errors: ReviewErrors = {};
  if (parseRating(draft.rating) === null) errors.rating = 'reviews.error.rating';
  const length = reviewLength(draft.content);
  if (length === 0) errors.content = 'reviews.error.content';
  else if (length > MAX_REVIEW_LENGTH) errors.content = 'reviews.error.contentTooLong';
  const author = draft.author.trim();
  if (!author) errors.author = 'reviews.error.author';
  else if (author.length > MAX_AUTHOR_LENGTH) errors.author = 'reviews.error.authorTooLong';
  if (emailRequired) {
    if (!draft.email.trim()) errors.email = 'reviews.error.emailMissing';
    else if (!isReviewEmail(draft.email)) errors.email = 'reviews.error.email';
  }
  return errors;
}

export function firstInvalidField(errors: ReviewErrors): ReviewField | undefined {
  return REVIEW_FIELDS.find((field) => errors[field]);
}

export interface WriteReviewVariables {
  commentOn: number;
  rating: number;
  content: string;
  author: string;
  authorEmail: string;
}

/** The WriteReview variables for a valid draft (validate first: this throws on a missing rating). */
export function reviewVariables(
  productId: number,
  draft: ReviewDraft,
  viewerEmail?: string | null,
): WriteReviewVariables {
  const rating = parseRating(draft.rating);
  if (rating === null) throw new Error('A review needs a rating from 1 to 5.');
  return {
    commentOn: productId,
    rating,
    content: draft.content.replace(/\r\n?/g, '\n').trim(),
    author: draft.author.trim().replace(/\s+/g, ' '),
    authorEmail: (draft.email.trim() || viewerEmail?.trim() || '').toLowerCase(),
  };
}

export type ReviewOutcome = 'published' | 'pending';

/**
 * What happened to a written review: published at once, or waiting for the shop's approval
 * (REVIEWS_REQUIRE_APPROVAL). WooGraphQL says so with the comment's `approved` flag, and a moderated
 * review may come back without the comment at all (anonymous callers cannot see it until approved).
 */
export function reviewOutcome(
  result: { writeReview?: { review?: { approved?: boolean | null } | null } | null } | null | undefined,
): ReviewOutcome {
  const review = result?.writeReview?.review;
  if (!review) return 'pending';
  return review.approved === false ? 'pending' : 'published';
}
