import { useId, useState } from 'react';
import type { Lookup } from '../../lib/i18n/lookup.ts';

export interface StarRatingInputProps {
  /** The form field's name. */
  name: string;
  /** The chosen rating (1–5) or null. */
  value: number | null;
  onChange: (rating: number) => void;
  t: Lookup;
  /** The id of the error message under the group, when there is one. */
  errorId?: string;
  invalid?: boolean;
}

const STAR = 'M10 1.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L10 14.9l-5.2 2.7 1-5.8L1.5 7.7l5.9-.9z';
const RATINGS = [1, 2, 3, 4, 5] as const;

/**
 * A 1–5 star choice built on a native radio group, so it behaves as one everywhere: Tab enters the
 * group, arrow keys move and choose, each star is announced as '4 of 5 stars', and the legend names
 * the group. The inputs are visually hidden; their labels are the stars and show the focus ring.
 */
export default function StarRatingInput({ name, value, onChange, t, errorId, invalid = false }: StarRatingInputProps) {
  const id = useId();
  const [hover, setHover] = useState<number | null>(null);
  const shown = hover ?? value ?? 0;
  return (
    <fieldset aria-describedby={errorId} aria-invalid={invalid || undefined}>
      <legend className="text-sm font-semibold text-gray-900 dark:text-gray-100">
        {t('reviews.rating')} <span aria-hidden="true">*</span>
        <span className="sr-only"> ({t('reviews.required')})</span>
      </legend>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: only ends the hover preview; the radios inside take the keyboard */}
      <div className="mt-2 flex items-center gap-1" onMouseLeave={() => setHover(null)}>
        {RATINGS.map((rating) => {
          const inputId = `${id}-${rating}`;
          const filled = rating <= shown;
          return (
            <span key={rating} className="relative">
              <input
                id={inputId}
                type="radio"
                name={name}
                value={rating}
                checked={value === rating}
                onChange={() => onChange(rating)}
                className="peer sr-only"
              />
              <label
                htmlFor={inputId}
                onMouseEnter={() => setHover(rating)}
                className="block cursor-pointer rounded-md p-1 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-1 peer-focus-visible:outline-main"
              >
                <svg
                  viewBox="0 0 20 20"
                  aria-hidden="true"
                  className={`h-8 w-8 stroke-[1.5] ${filled ? 'fill-amber-500 stroke-amber-600' : 'fill-transparent stroke-gray-500 dark:stroke-gray-400'}`}
                >
                  <path d={STAR} strokeLinejoin="round" />
                </svg>
                <span className="sr-only">{t('reviews.star', { count: rating })}</span>
              </label>
            </span>
          );
        })}
        <span className="ml-2 text-sm text-gray-700 dark:text-gray-300" aria-hidden="true">
          {value ? t('reviews.star', { count: value }) : ''}
        </span>
      </div>
    </fieldset>
  );
}
