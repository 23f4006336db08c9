/**
 * The review form's rules (src/islands/reviews/review-form.ts) and how reviews shown on the product page
 * are turned into text (review-text.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  firstInvalidField,
  isReviewEmail,
  MAX_REVIEW_LENGTH,
  parseRating,
  reviewOutcome,
  reviewVariables,
  validateReview,
  type ReviewDraft,
} from '../../src/islands/reviews/review-form.ts';
import { reviewParagraphs } from '../../src/islands/reviews/review-text.ts';
import { isEmail } from '../../src/server/cart/address-validation.ts';

const draft = (over: Partial<ReviewDraft> = {}): ReviewDraft => ({
  rating: 4,
  content: 'Solid antenna.',
  author: 'Ada',
  email: 'ada@example.com',
  ...over,
});

describe('validateReview', () => {
  it('accepts a complete review', () => {
    expect(validateReview(draft(), { emailRequired: true })).toEqual({});
  });

  it('names every missing field, in the order the form shows them', () => {
    const errors = validateReview({ rating: null, content: '  \n ', author: ' ', email: '' }, { emailRequired: true });
    expect(errors).toEqual({
      rating: 'reviews.error.rating',
      content: 'reviews.error.content',
      author: 'reviews.error.author',
      email: 'reviews.error.emailMissing',
    });
    expect(firstInvalidField(errors)).toBe('rating');
    expect(firstInvalidField({ email: 'x', content: 'y' })).toBe('content');
  });

  it('refuses ratings outside 1–5 and malformed addresses, and over-long text', () => {
    expect(validateReview(draft({ rating: 0 }), { emailRequired: true }).rating).toBe('reviews.error.rating');
    expect(validateReview(draft({ rating: 6 }), { emailRequired: true }).rating).toBe('reviews.error.rating');
    expect(validateReview(draft({ email: 'ada@localhost' }), { emailRequired: true }).email).toBe(
      'reviews.error.email',
    );
    expect(validateReview(draft({ content: 'x'.repeat(MAX_REVIEW_LENGTH + 1) }), { emailRequired: true }).content).toBe(
      'reviews.error.contentTooLong',
    );
    // Exactly the limit after trimming is fine, as for the engine.
    expect(
      validateReview(draft({ content: ` ${'x'.repeat(MAX_REVIEW_LENGTH)} ` }), { emailRequired: true }).content,
    ).toBeUndefined();
    expect(validateReview(draft({ author: 'A'.repeat(101) }), { emailRequired: true }).author).toBe(
      'reviews.error.authorTooLong',
    );
  });

  it('does not ask a logged-in customer with a known address for an e-mail', () => {
    expect(validateReview(draft({ email: '' }), { emailRequired: false })).toEqual({});
  });
});

describe('parseRating', () => {
  it('reads a star value from the form', () => {
    expect(parseRating('4')).toBe(4);
    expect(parseRating(5)).toBe(5);
    for (const bad of ['', '0', '6', '4.5', 'four', null, undefined, 3.5]) expect(parseRating(bad)).toBeNull();
  });
});

describe('isReviewEmail', () => {
  it('accepts only what the engine accepts', () => {
    const samples = [
      'ada@example.com',
      'a.b+c@sub.example.org',
      'ada@localhost',
      'ada@example.c',
      'ada@@example.com',
      'ada example@x.com',
      '<ada>@example.com',
      'ADA@EXAMPLE.COM',
    ];
    for (const sample of samples) {
      if (isReviewEmail(sample)) expect(isEmail(sample.trim().toLowerCase()), sample).toBe(true);
    }
    expect(isReviewEmail('ada@example.com')).toBe(true);
    expect(isReviewEmail('ada@localhost')).toBe(false);
  });
});

describe('reviewVariables', () => {
  it('builds WriteReview variables with tidy text and a lower-case address', () => {
    expect(
      reviewVariables(
        12,
        draft({ content: ' Good.\r\nReally. ', author: '  Ada   Lovelace ', email: ' Ada@Example.com ' }),
      ),
    ).toEqual({
      commentOn: 12,
      rating: 4,
      content: 'Good.\nReally.',
      author: 'Ada Lovelace',
      authorEmail: 'ada@example.com',
    });
  });

  it("sends the logged-in customer's address when the field is hidden", () => {
    expect(reviewVariables(12, draft({ email: '' }), 'Customer@Example.com').authorEmail).toBe('customer@example.com');
  });

  it('refuses a draft without a rating', () => {
    expect(() => reviewVariables(12, draft({ rating: null }))).toThrow(/rating/);
  });
});

describe('reviewOutcome', () => {
  it('tells a published review from one awaiting moderation', () => {
    expect(reviewOutcome({ writeReview: { review: { approved: true } } })).toBe('published');
    expect(reviewOutcome({ writeReview: { review: { approved: false } } })).toBe('pending');
    // WooGraphQL hides an unapproved review from anonymous callers.
    expect(reviewOutcome({ writeReview: { review: null } })).toBe('pending');
  });
});

describe('reviewParagraphs', () => {
  it("turns the engine's escaped paragraphs back into text, to be escaped again by the page", () => {
    expect(
      reviewParagraphs(
        '<p>Works &amp; lasts &lt;script&gt;alert(1)&lt;/script&gt;</p>\n<p>Line one<br />\nline two</p>',
      ),
    ).toEqual(['Works & lasts <script>alert(1)</script>', 'Line one\nline two']);
  });

  it('drops markup from another backend instead of rendering it', () => {
    expect(
      reviewParagraphs(
        '<p onclick="x()">Nice <em>antenna</em><script>steal()</script></p><img src=x onerror=alert(1)>',
      ),
    ).toEqual(['Nice antenna']);
  });

  it('handles empty and entity-only content', () => {
    expect(reviewParagraphs(null)).toEqual([]);
    expect(reviewParagraphs('<p> </p>')).toEqual([]);
    expect(reviewParagraphs('&#8220;Great&#x201D; &unknown;')).toEqual(['“Great” &unknown;']);
  });
});
