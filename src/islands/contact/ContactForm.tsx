/**
 * The contact form, in the Contact Us modal and on /contact. Order of a submit, as the spec has it:
 * reCAPTCHA v3 token (action 'submit') → e-mail pattern check (inline 'Please enter a valid email', stop)
 * → button disabled with a spinner → POST {firstName, lastName, email, phone, message,
 * g-recaptcha-response} to /api/contact-form/create → success: the modal closes and the server's message
 * (if any) shows as an alert; failure: a danger alert with the server's message or 'Something went wrong'.
 * The submitting flag is cleared either way. Opening the modal clears the fields and the flag.
 *
 * Shops without reCAPTCHA keys use the self-hosted ALTCHA check instead (AltchaCheck.tsx): the widget
 * shows above the Send button and the form sends its payload as `altcha`, after the field checks (the
 * widget has usually finished while the visitor typed; otherwise the spinner covers the wait).
 *
 * reCAPTCHA runs only with the visitor's consent (src/stores/consent.ts): when the shop uses it and the
 * visitor has not chosen yet, the privacy settings open once as the visitor starts using the form. Until
 * the visitor accepts, the form uses the ALTCHA check, which the server also takes when it runs
 * reCAPTCHA (src/server/bot-check/check.ts): declining costs the visitor nothing, and Google's script
 * never loads before "Accept".
 */
import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { createLookup, type Strings } from '../../lib/i18n/lookup.ts';
import { raiseAlert } from '../../stores/alert.ts';
import { $contactModalOpen, closeContactModal } from '../../stores/ui.ts';
import { $consent, allows, currentConsent } from '../../stores/consent.ts';
import AltchaCheck, { type AltchaControl } from './AltchaCheck.tsx';
import { isValidEmail } from './email.ts';
import { getBotToken, loadBotCheckConfig, prepareBotCheck, type BotCheckConfig } from './recaptcha.ts';

export interface ContactFormProps {
  strings: Strings;
  /** 'modal': lives in the Contact Us dialog (resets on open, closes on success); 'page': /contact. */
  variant: 'modal' | 'page';
}

/** The privacy settings dialog (in the footer of every page); its code loads on first use. */
const askConsent = () =>
  import('../../components/privacy/consent-dialog.ts').then((m) => m.openPrivacySettings()).catch(() => null);

type Fields = { firstName: string; lastName: string; email: string; phone: string; message: string };
type FieldName = keyof Fields;
const EMPTY: Fields = { firstName: '', lastName: '', email: '', phone: '', message: '' };
const REQUIRED: FieldName[] = ['firstName', 'lastName', 'email', 'message'];

export const CONTACT_ENDPOINT = '/api/contact-form/create';

function Spinner() {
  return (
    <svg className="size-4 animate-spin" viewBox="0 0 24 24" fill="none" aria-hidden="true">
      <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.3" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}

/** 'The Google {privacy} and {terms} apply.' with the two placeholders as links. */
function RecaptchaNotice({ t }: { t: ReturnType<typeof createLookup> }) {
  const links: Record<string, ReactNode> = {
    privacy: (
      <a
        key="privacy"
        href="https://policies.google.com/privacy"
        className="underline underline-offset-2 hover:text-main"
        rel="noopener noreferrer"
        target="_blank"
      >
        {t('contact.recaptcha.privacy')}
      </a>
    ),
    terms: (
      <a
        key="terms"
        href="https://policies.google.com/terms"
        className="underline underline-offset-2 hover:text-main"
        rel="noopener noreferrer"
        target="_blank"
      >
        {t('contact.recaptcha.terms')}
      </a>
    ),
  };
  const parts = t('contact.recaptcha.notice').split(/(\{privacy\}|\{terms\})/);
  return (
    <p className="text-xs leading-5 text-gray-600">
      {parts.map(
        (part, i) =>
          links[part.slice(1, -1)] ?? (
            // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one sentence, in a fixed order; the same text can occur twice
            <span key={i}>{part}</span>
          ),
      )}
    </p>
  );
}

export default function ContactForm({ strings, variant }: ContactFormProps) {
  const t = createLookup(strings);
  const id = useId();
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const inputs = useRef<Partial<Record<FieldName, HTMLInputElement | HTMLTextAreaElement | null>>>({});
  const modalOpen = useStore($contactModalOpen);
  const wasOpen = useRef(modalOpen);
  // False in the prebuilt HTML and in the first (hydrating) render, true once React handles submit; see the <form>.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  // Which bot check the server runs: asked once the form is on screen (this island hydrates then).
  const [botCheck, setBotCheck] = useState<BotCheckConfig | null>(null);
  useEffect(() => {
    loadBotCheckConfig().then(setBotCheck, () => {}); // a failure is reported at submit, which asks again
  }, []);
  // The visitor's privacy choice (read from storage once this island runs; the dialog updates it).
  const consent = useStore($consent);
  useEffect(() => {
    currentConsent();
  }, []);
  const altcha = useRef<AltchaControl | null>(null);
  // The visitor has started using the form (first focus): the ALTCHA widget's code loads then.
  const form = useRef<HTMLFormElement | null>(null);
  const [engaged, setEngaged] = useState(false);
  useEffect(() => {
    // The modal focuses its first field as it opens, which may be before this island took over.
    if (form.current?.contains(document.activeElement)) setEngaged(true);
  }, []);

  // Ask about reCAPTCHA once, when the visitor starts using a form that needs it.
  const asked = useRef(false);
  const recaptchaInUse = !!botCheck?.recaptcha;
  useEffect(() => {
    if (!engaged || !recaptchaInUse || consent !== null || asked.current) return;
    asked.current = true;
    void askConsent();
  }, [engaged, recaptchaInUse, consent]);
  // The check this form runs: reCAPTCHA once accepted, ALTCHA until then (and where reCAPTCHA is not used).
  const recaptchaChosen = recaptchaInUse && consent?.choice === 'all';
  // Accepted while the form is in use: start loading the script now, so Send is quick.
  useEffect(() => {
    if (engaged && recaptchaChosen) prepareBotCheck();
  }, [engaged, recaptchaChosen]);

  // Every opening of the modal starts with an empty form that is not submitting.
  useEffect(() => {
    if (variant === 'modal' && modalOpen && !wasOpen.current) {
      setFields(EMPTY);
      setErrors({});
      setFailure(null);
      setSubmitting(false);
      altcha.current?.reset();
    }
    wasOpen.current = modalOpen;
  }, [modalOpen, variant]);

  const update = (name: FieldName) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setFields((f) => ({ ...f, [name]: value }));
    if (errors[name]) setErrors((e) => ({ ...e, [name]: undefined }));
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    setFailure(null);
    const botCheckUnavailable = () => {
      const message = t('contact.botCheckUnavailable');
      setFailure(message);
      raiseAlert({ type: 'danger', message, timeout: 6000 });
    };

    let config: BotCheckConfig;
    let token: string | undefined;
    try {
      config = await loadBotCheckConfig();
      // reCAPTCHA once the visitor accepted it; otherwise ALTCHA (offered alongside it), never both.
      if (config.recaptcha && (allows('google-recaptcha') || !config.altcha)) token = await getBotToken();
    } catch {
      botCheckUnavailable();
      return;
    }

    if (!isValidEmail(fields.email)) {
      setErrors((e) => ({ ...e, email: t('contact.invalidEmail') }));
      inputs.current.email?.focus();
      return;
    }
    const missing = REQUIRED.filter((name) => fields[name].trim() === '');
    if (missing.length) {
      setErrors(Object.fromEntries(missing.map((name) => [name, t('contact.required')])));
      inputs.current[missing[0]!]?.focus();
      return;
    }

    setSubmitting(true);
    try {
      let altchaPayload: string | undefined;
      if (token === undefined && config.altcha) {
        try {
          if (!altcha.current) throw new Error('the ALTCHA check is not on the page');
          altchaPayload = await altcha.current.payload();
        } catch {
          botCheckUnavailable();
          return;
        }
      }
      const response = await fetch(CONTACT_ENDPOINT, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ ...fields, 'g-recaptcha-response': token, altcha: altchaPayload }),
      });
      const data = (await response.json().catch(() => ({}))) as {
        message?: string;
        errors?: Partial<Record<FieldName, string>>;
      };
      if (!response.ok) throw Object.assign(new Error('contact form refused'), { data });
      if (variant === 'modal') closeContactModal();
      setFields(EMPTY);
      setErrors({});
      altcha.current?.reset();
      if (data.message) raiseAlert({ type: 'success', message: data.message, timeout: 6000 });
    } catch (err) {
      const data = (err as { data?: { message?: string; errors?: Partial<Record<FieldName, string>> } }).data;
      const message = data?.message || t('contact.somethingWentWrong');
      if (data?.errors) {
        setErrors(data.errors);
      } else {
        // A refused or lost answer cannot be sent again: the next submit solves a new challenge. (Field
        // errors are found before the bot check, so the answer is still good after them.)
        altcha.current?.reset();
      }
      setFailure(message);
      raiseAlert({ type: 'danger', message, timeout: 6000 });
    } finally {
      setSubmitting(false);
    }
  }

  const field = (
    name: FieldName,
    label: string,
    options: { type?: string; autoComplete?: string; required?: boolean; inputMode?: 'email' | 'tel' } = {},
  ) => {
    const inputId = `${id}-${name}`;
    const errorId = `${inputId}-error`;
    const error = errors[name];
    return (
      <div>
        <label htmlFor={inputId} className="block text-sm font-medium text-gray-900">
          {label}
          {options.required === false && <span className="font-normal text-gray-600"> {t('contact.optional')}</span>}
        </label>
        <input
          ref={(el) => {
            inputs.current[name] = el;
          }}
          id={inputId}
          name={name}
          type={options.type ?? 'text'}
          inputMode={options.inputMode}
          autoComplete={options.autoComplete}
          value={fields[name]}
          onChange={update(name)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          aria-required={options.required === false ? undefined : true}
          maxLength={name === 'email' ? 254 : 100}
          className="mt-1.5 block w-full rounded-lg border border-gray-300 bg-white px-3 py-2.5 text-gray-900 shadow-sm focus:border-main focus:outline-2 focus:outline-main/30 aria-[invalid]:border-red-600"
        />
        {error && (
          <p id={errorId} className="mt-1 text-sm text-red-700">
            {error}
          </p>
        )}
      </div>
    );
  };

  const messageId = `${id}-message`;
  const preparingId = `${id}-preparing`;
  // Before React hydrates, the prebuilt form is plain HTML. A plain form without a method submits by GET,
  // which put name, e-mail, phone and message into the URL (history, server and proxy logs). Two guards,
  // so that can never happen and nothing typed is lost:
  // - the Send button is disabled until hydration (with a visible hint it is described by): a click or
  //   Enter does nothing instead of leaving the page, and the shopper's text stays where it is;
  // - should the form still be submitted natively (a script calling form.submit(), a browser that ignores
  //   `disabled`), method="post" keeps the fields in the body, and the endpoint answers a form-encoded
  //   POST with a page that stores nothing and explains how to resend (src/pages/api/contact-form/create.ts).
  // A native POST cannot simply be processed instead: it carries no bot-check token.
  return (
    <form
      method="post"
      action={CONTACT_ENDPOINT}
      noValidate
      onSubmit={submit}
      ref={form}
      onFocus={() => {
        prepareBotCheck();
        setEngaged(true);
      }}
      aria-busy={submitting}
      className="space-y-5"
      data-contact-form={variant}
      data-hydrated={hydrated ? '' : undefined}
    >
      <div className="grid gap-5 sm:grid-cols-2">
        {field('firstName', t('contact.firstName'), { autoComplete: 'given-name' })}
        {field('lastName', t('contact.lastName'), { autoComplete: 'family-name' })}
        {field('email', t('contact.email'), { type: 'email', autoComplete: 'email', inputMode: 'email' })}
        {field('phone', t('contact.phone'), { type: 'tel', autoComplete: 'tel', required: false, inputMode: 'tel' })}
      </div>
      <div>
        <label htmlFor={messageId} className="block text-sm font-medium text-gray-900">
          {t('contact.message')}
        </label>
        <textarea
          ref={(el) => {
            inputs.current.message = el;
          }}
          id={messageId}
          name="message"
          value={fields.message}
          onChange={update('message')}
          aria-invalid={errors.message ? true : undefined}
          aria-describedby={errors.message ? `${messageId}-error` : undefined}
          aria-required
          maxLength={5000}
          style={{ height: '185px' }}
          className="mt-1.5 block w-full resize-none rounded-lg border border-gray-300 bg-white px-3 py-2.5 text-gray-900 shadow-sm focus:border-main focus:outline-2 focus:outline-main/30 aria-[invalid]:border-red-600"
        />
        {errors.message && (
          <p id={`${messageId}-error`} className="mt-1 text-sm text-red-700">
            {errors.message}
          </p>
        )}
      </div>
      {botCheck?.altcha && !recaptchaChosen && (
        <AltchaCheck challengeUrl={botCheck.altcha.challengeUrl} t={t} control={altcha} start={engaged} />
      )}
      {failure && (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {failure}
        </p>
      )}
      {!hydrated && (
        <p id={preparingId} className="text-sm text-gray-600">
          {t('contact.preparing')}
        </p>
      )}
      <div className="flex flex-col-reverse gap-4 sm:flex-row sm:items-center sm:justify-between">
        {recaptchaChosen && <RecaptchaNotice t={t} />}
        <button
          type="submit"
          disabled={!hydrated || submitting}
          aria-describedby={hydrated ? undefined : preparingId}
          className="inline-flex shrink-0 items-center justify-center gap-2 sm:ml-auto rounded-full bg-main px-6 py-2.5 text-sm font-semibold text-on-main shadow-sm transition hover:brightness-110 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-main disabled:cursor-not-allowed disabled:opacity-70"
        >
          {submitting && <Spinner />}
          {submitting ? t('contact.sending') : t('contact.send')}
        </button>
      </div>
    </form>
  );
}
