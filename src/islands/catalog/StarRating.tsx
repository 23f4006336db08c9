import { createLookup, type Strings } from '../../lib/i18n/lookup.ts';

export interface StarRatingProps {
  /** Average rating 0–5. */
  rating: number | null | undefined;
  /** Number of reviews, shown after the stars when given. */
  count?: number | null;
  strings: Strings;
  size?: 'sm' | 'md';
}

const STAR = 'M10 1.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L10 14.9l-5.2 2.7 1-5.8L1.5 7.7l5.9-.9z';

function Stars({ className }: { className: string }) {
  return (
    <>
      {[0, 1, 2, 3, 4].map((i) => (
        <svg key={i} viewBox="0 0 20 20" className={className} aria-hidden="true">
          <path d={STAR} />
        </svg>
      ))}
    </>
  );
}

/**
 * Read-only stars. The drawing is decorative (a grey row with a gold row clipped to the rating on top,
 * so partial stars need no SVG ids); the accessible name says the rating in words.
 */
export default function StarRating({ rating, count, strings, size = 'sm' }: StarRatingProps) {
  const t = createLookup(strings);
  const value = Math.max(0, Math.min(5, Number(rating) || 0));
  const rounded = Math.round(value * 10) / 10;
  const star = `${size === 'sm' ? 'h-4 w-4' : 'h-5 w-5'} shrink-0 fill-current`;
  return (
    <span className="inline-flex items-center gap-1">
      <span role="img" aria-label={t('product.ratingLabel', { rating: rounded })} className="relative inline-flex">
        <span className="inline-flex text-gray-300 dark:text-gray-600" aria-hidden="true">
          <Stars className={star} />
        </span>
        <span
          className="absolute inset-y-0 left-0 inline-flex overflow-hidden text-amber-500"
          style={{ width: `${(value / 5) * 100}%` }}
          aria-hidden="true"
        >
          <Stars className={star} />
        </span>
      </span>
      {count != null && count > 0 && (
        <span className="text-xs text-gray-600 dark:text-gray-300">{t('product.reviewCount', { count })}</span>
      )}
    </span>
  );
}
