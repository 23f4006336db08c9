/**
 * Small building blocks of the account forms: a labelled input with its error tied to it
 * (aria-describedby), the form's alert region, and the button styles. Plain markup, no state.
 */
import type { ReactNode } from 'react';
import type { Lookup } from '../../lib/i18n/lookup';
import type { FormErrors } from './validation';

export const INPUT =
  'mt-1 block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm text-gray-900 focus:outline-2 focus:outline-main aria-[invalid=true]:border-red-600';
export const BUTTON =
  'inline-flex items-center justify-center rounded-full bg-main px-6 py-2.5 text-sm font-semibold text-on-main hover:brightness-110 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-main disabled:opacity-60';
export const BUTTON_SECONDARY =
  'inline-flex items-center justify-center rounded-full border border-gray-300 bg-white px-5 py-2 text-sm font-medium text-gray-800 hover:border-main hover:text-main focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-main disabled:opacity-60';
export const LINK =
  'font-medium text-main underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-main';

export interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  error?: string;
  required?: boolean;
  hint?: string;
  className?: string;
}

export function TextField({
  id,
  label,
  value,
  onChange,
  type = 'text',
  autoComplete,
  error,
  required,
  hint,
  className = '',
}: TextFieldProps) {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-gray-800">
        {label}
        {required && (
          <span aria-hidden="true" className="text-red-700">
            {' '}
            *
          </span>
        )}
      </label>
      <input
        id={id}
        name={id}
        type={type}
        value={value}
        autoComplete={autoComplete}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        onChange={(event) => onChange(event.target.value)}
        className={INPUT}
      />
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-gray-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-xs text-red-700" data-field-error={id}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A password form's last row: its submit button and, opposite, the way to a forgotten password. */
export function SubmitWithForgotPassword({
  label,
  disabled,
  localePrefix,
  forgotLabel,
}: {
  label: string;
  disabled: boolean;
  localePrefix: string;
  forgotLabel: string;
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <button type="submit" className={BUTTON} disabled={disabled}>
        {label}
      </button>
      <a href={`${localePrefix}/my-account/lost-password`} className={`text-sm ${LINK}`}>
        {forgotLabel}
      </a>
    </div>
  );
}

export type Notice = { tone: 'error' | 'success' | 'info'; text: string } | null;

/**
 * The form's message region: a polite status region that is always rendered (so screen readers know
 * it before anything is said in it); an error inside it is an alert, read out at once.
 */
export function FormNotice({ notice, id }: { notice: Notice; id?: string }) {
  const tone =
    notice?.tone === 'error'
      ? 'border-red-200 bg-red-50 text-red-800'
      : notice?.tone === 'success'
        ? 'border-green-200 bg-green-50 text-green-800'
        : 'border-gray-200 bg-gray-50 text-gray-800';
  return (
    <div id={id} role="status" aria-live="polite" data-account-notice={notice?.tone ?? ''}>
      {notice && (
        <p
          role={notice.tone === 'error' ? 'alert' : undefined}
          className={`rounded-md border px-3 py-2 text-sm ${tone}`}
        >
          {notice.text}
        </p>
      )}
    </div>
  );
}

export function Section({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  return (
    <section aria-labelledby={id} className="rounded-xl border border-gray-200 bg-white p-5 shadow-sm sm:p-6">
      <h2 id={id} className="mb-4 text-lg font-semibold text-gray-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

/**
 * A new password and its confirmation (password reset and password change): ids `<idPrefix>-password`
 * and `<idPrefix>-confirm`, which the forms focus on an error.
 */
export function NewPasswordFields({
  t,
  idPrefix,
  password,
  confirm,
  errors,
  onChange,
}: {
  t: Lookup;
  idPrefix: string;
  password: string;
  confirm: string;
  errors: FormErrors;
  onChange: (field: 'password' | 'confirm', value: string) => void;
}) {
  return (
    <>
      <TextField
        id={`${idPrefix}-password`}
        label={t('account.field.newPassword')}
        type="password"
        value={password}
        onChange={(v) => onChange('password', v)}
        autoComplete="new-password"
        required
        hint={t('account.hint.password')}
        error={errors.password && t(errors.password)}
      />
      <TextField
        id={`${idPrefix}-confirm`}
        label={t('account.field.confirmPassword')}
        type="password"
        value={confirm}
        onChange={(v) => onChange('confirm', v)}
        autoComplete="new-password"
        required
        error={errors.confirm && t(errors.confirm)}
      />
    </>
  );
}
