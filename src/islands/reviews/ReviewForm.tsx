/**
 * The product page's "Write a review" form (WriteReview): star rating, review text, name and e-mail.
 * A logged-in customer ($viewer) gets their name filled in and their e-mail sent without the field.
 * Errors show under their field (and the first one gets the focus); after sending, the form says
 * whether the review is published or waits for the shop's approval, or shows the engine's message.
 *
 *   <ReviewForm client:visible productId={…} productName={…} strings={pickStrings(code, ['reviews.'])} />
 *
 * Hydrate it when visible: it sits at the end of the page, so it costs nothing before the visitor
 * scrolls there. Text fields are uncontrolled, so anything typed before hydration is kept; the GraphQL
 * client loads on the first submit.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { createLookup, type Strings } from '../../lib/i18n/lookup.ts';
import { engineMessage } from '../../stores/engine-message.ts';
import { $viewer, type Viewer } from '../../stores/viewer.ts';
import {
  firstInvalidField,
  MAX_AUTHOR_LENGTH,
  MAX_REVIEW_LENGTH,
  parseRating,
  reviewOutcome,
  reviewVariables,
  validateReview,
  type ReviewDraft,
  type ReviewErrors,
  type ReviewField,
  type ReviewOutcome,
} from './review-form.ts';
import StarRatingInput from './StarRatingInput.tsx';

export interface ReviewFormProps {
  productId: number;
  productName: string;
  strings: Strings;
}

type Status =
  | { kind: 'editing' }
  | { kind: 'sending' }
  | { kind: 'failed'; message: string }
  | { kind: 'sent'; outcome: ReviewOutcome; rating: number; content: string; author: string };

function displayName(viewer: Viewer): string {
  const full = [viewer.firstName, viewer.lastName].filter(Boolean).join(' ').trim();
  return full || viewer.username;
}

const fieldClass = (invalid: boolean) =>
  `mt-1 block w-full rounded-md border px-3 py-2 text-base text-gray-900 focus:outline-2 focus:outline-offset-1 focus:outline-main dark:bg-gray-900 dark:text-gray-100 ${
    invalid ? 'border-red-700 dark:border-red-400' : 'border-gray-300 dark:border-gray-600'
  }`;

export default function ReviewForm({ productId, productName, strings }: ReviewFormProps) {
  const t = createLookup(strings);
  const id = useId();
  const ids = {
    rating: `${id}-rating`,
    content: `${id}-content`,
    author: `${id}-author`,
    email: `${id}-email`,
    heading: `${id}-heading`,
  };
  const form = useRef<HTMLFormElement>(null);
  const result = useRef<HTMLDivElement>(null);
  const storedViewer = useStore($viewer);
  // The static HTML cannot know who is logged in: apply the viewer only once mounted.
  const [mounted, setMounted] = useState(false);
  const viewer = mounted ? storedViewer : null;
  const hideEmail = Boolean(viewer?.email);
  const [rating, setRating] = useState<number | null>(null);
  const [errors, setErrors] = useState<ReviewErrors>({});
  const [status, setStatus] = useState<Status>({ kind: 'editing' });

  useEffect(() => {
    setMounted(true);
    // A star picked before hydration stays picked.
    const checked = form.current?.querySelector<HTMLInputElement>('input[name="rating"]:checked');
    const early = parseRating(checked?.value);
    if (early !== null) setRating(early);
  }, []);

  useEffect(() => {
    const author = form.current?.elements.namedItem('author');
    if (viewer && author instanceof HTMLInputElement && !author.value) author.value = displayName(viewer);
  }, [viewer]);

  useEffect(() => {
    if (status.kind === 'sent') result.current?.focus();
  }, [status.kind]);

  const draft = (): ReviewDraft => {
    const data = new FormData(form.current ?? undefined);
    return {
      rating,
      content: String(data.get('content') ?? ''),
      author: String(data.get('author') ?? ''),
      email: hideEmail ? '' : String(data.get('email') ?? ''),
    };
  };

  /** After a failed submit, a field's message goes away as soon as the field is right. */
  const recheck = (field: ReviewField, next: Partial<ReviewDraft> = {}) => {
    if (!errors[field]) return;
    const fresh = validateReview({ ...draft(), ...next }, { emailRequired: !hideEmail });
    setErrors((current) => ({ ...current, [field]: fresh[field] }));
  };

  const focusField = (field: ReviewField) => {
    const target =
      field === 'rating'
        ? (form.current?.querySelector<HTMLInputElement>('input[name="rating"]:checked') ??
          form.current?.querySelector<HTMLInputElement>('input[name="rating"]'))
        : form.current?.querySelector<HTMLElement>(`[name="${field}"]`);
    target?.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (status.kind === 'sending') return;
    const current = draft();
    const found = validateReview(current, { emailRequired: !hideEmail });
    setErrors(found);
    const first = firstInvalidField(found);
    if (first) {
      focusField(first);
      return;
    }
    setStatus({ kind: 'sending' });
    try {
      const variables = reviewVariables(productId, current, viewer?.email);
      // The session module plugs the shopper's session and login into the client (a customer's review
      // can then count as a verified owner's).
      const [{ request }] = await Promise.all([import('../../graphql/client.ts'), import('../../stores/session.ts')]);
      const answer = await request('WriteReview', variables);
      setStatus({
        kind: 'sent',
        outcome: reviewOutcome(answer),
        rating: variables.rating,
        content: variables.content,
        author: variables.author,
      });
    } catch (error) {
      setStatus({ kind: 'failed', message: engineMessage(error) });
    }
  };

  const error = (field: ReviewField) =>
    errors[field] ? (
      <p id={`${ids[field]}-error`} className="mt-1 text-sm font-medium text-red-700 dark:text-red-400">
        {t(errors[field] as string, { max: field === 'author' ? MAX_AUTHOR_LENGTH : MAX_REVIEW_LENGTH })}
      </p>
    ) : null;
  const described = (field: ReviewField, hint?: string) =>
    [hint, errors[field] ? `${ids[field]}-error` : undefined].filter(Boolean).join(' ') || undefined;

  if (status.kind === 'sent') {
    return (
      <div
        ref={result}
        tabIndex={-1}
        role="status"
        className="mt-8 rounded-2xl border border-green-700/30 bg-green-50 p-5 focus:outline-2 focus:outline-main dark:bg-green-950"
        data-review-sent={status.outcome}
      >
        <p className="font-semibold text-green-900 dark:text-green-100">
          {t(status.outcome === 'published' ? 'reviews.published' : 'reviews.pending')}
        </p>
        <figure className="mt-4 rounded-xl bg-white p-4 text-sm text-gray-700 dark:bg-gray-900 dark:text-gray-200">
          <p className="sr-only">{t('reviews.star', { count: status.rating })}</p>
          <p aria-hidden="true" className="text-amber-600">
            {'★'.repeat(status.rating)}
            <span className="text-gray-400">{'★'.repeat(5 - status.rating)}</span>
          </p>
          <blockquote className="mt-2 whitespace-pre-line">{status.content}</blockquote>
          <figcaption className="mt-2 font-semibold text-gray-900 dark:text-gray-100">{status.author}</figcaption>
        </figure>
      </div>
    );
  }

  const sending = status.kind === 'sending';
  return (
    <form
      ref={form}
      noValidate
      onSubmit={submit}
      aria-labelledby={ids.heading}
      className="mt-10 max-w-2xl rounded-2xl border border-gray-200 p-5 sm:p-6 dark:border-gray-700"
    >
      <h3 id={ids.heading} className="text-lg font-semibold text-gray-900 dark:text-gray-100">
        {t('reviews.formTitle')}
      </h3>
      <p className="mt-1 text-sm text-gray-600 dark:text-gray-300">{t('reviews.formIntro', { name: productName })}</p>

      <div className="mt-5 space-y-5">
        <div>
          <StarRatingInput
            name="rating"
            value={rating}
            t={t}
            invalid={Boolean(errors.rating)}
            errorId={errors.rating ? `${ids.rating}-error` : undefined}
            onChange={(value) => {
              setRating(value);
              recheck('rating', { rating: value });
            }}
          />
          {error('rating')}
        </div>

        <div>
          <label htmlFor={ids.content} className="text-sm font-semibold text-gray-900 dark:text-gray-100">
            {t('reviews.content')} <span aria-hidden="true">*</span>
          </label>
          <textarea
            id={ids.content}
            name="content"
            rows={5}
            required
            maxLength={MAX_REVIEW_LENGTH}
            aria-invalid={Boolean(errors.content) || undefined}
            aria-describedby={described('content', `${ids.content}-hint`)}
            onChange={() => recheck('content')}
            className={fieldClass(Boolean(errors.content))}
          />
          <p id={`${ids.content}-hint`} className="mt-1 text-xs text-gray-600 dark:text-gray-300">
            {t('reviews.contentHint', { max: MAX_REVIEW_LENGTH })}
          </p>
          {error('content')}
        </div>

        <div className="grid gap-5 sm:grid-cols-2">
          <div>
            <label htmlFor={ids.author} className="text-sm font-semibold text-gray-900 dark:text-gray-100">
              {t('reviews.author')} <span aria-hidden="true">*</span>
            </label>
            <input
              id={ids.author}
              name="author"
              type="text"
              autoComplete="name"
              required
              maxLength={MAX_AUTHOR_LENGTH}
              aria-invalid={Boolean(errors.author) || undefined}
              aria-describedby={described('author')}
              onChange={() => recheck('author')}
              className={fieldClass(Boolean(errors.author))}
            />
            {error('author')}
          </div>
          {hideEmail ? (
            <p className="self-end text-sm text-gray-600 dark:text-gray-300">
              {t('reviews.postingAs', { email: viewer?.email ?? '' })}
            </p>
          ) : (
            <div>
              <label htmlFor={ids.email} className="text-sm font-semibold text-gray-900 dark:text-gray-100">
                {t('reviews.email')} <span aria-hidden="true">*</span>
              </label>
              <input
                id={ids.email}
                name="email"
                type="email"
                autoComplete="email"
                inputMode="email"
                required
                maxLength={254}
                aria-invalid={Boolean(errors.email) || undefined}
                aria-describedby={described('email', `${ids.email}-hint`)}
                onChange={() => recheck('email')}
                className={fieldClass(Boolean(errors.email))}
              />
              <p id={`${ids.email}-hint`} className="mt-1 text-xs text-gray-600 dark:text-gray-300">
                {t('reviews.emailHint')}
              </p>
              {error('email')}
            </div>
          )}
        </div>
      </div>

      {status.kind === 'failed' && (
        <p
          role="alert"
          className="mt-5 rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {t('reviews.failed', { message: status.message })}
        </p>
      )}

      <p className="mt-5 text-xs text-gray-600 dark:text-gray-300">{t('reviews.requiredNote')}</p>
      <button
        type="submit"
        // Until hydrated there is no handler: a disabled default button also stops Enter from submitting.
        disabled={!mounted || sending}
        data-review-submit
        className="mt-3 rounded-full bg-main px-6 py-3 text-base font-semibold text-on-main shadow-sm hover:brightness-110 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-main disabled:cursor-not-allowed disabled:opacity-60"
      >
        {sending ? t('reviews.sending') : t('reviews.submit')}
      </button>
    </form>
  );
}
