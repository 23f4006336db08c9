/**
 * /my-account/lost-password. Without a key: the request form (username or e-mail); the answer is
 * always the same confirmation, whether or not the account exists (the engine never tells). With
 * ?key=…&login=… from the e-mail: the new-password form; a used, expired or mangled link turns into the
 * invalid-link state with the request form to get a new one.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { request } from '../../graphql/client';
import { createLookup, type Lookup, type Strings } from '../../lib/i18n/lookup';
import { sessionReady } from '../../stores/session';
import { accountErrorText, isInvalidResetLink } from './messages';
import { resetLinkParams } from './navigation';
import { BUTTON, FormNotice, LINK, NewPasswordFields, Section, TextField, type Notice } from './ui';
import { hasErrors, validateEmailRequest, validatePasswordChange, type FormErrors } from './validation';

export interface LostPasswordProps {
  strings: Strings;
  localePrefix: string;
}

function RequestForm({ t, intro }: { t: Lookup; intro: string }) {
  const [login, setLogin] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = validateEmailRequest(login);
    setError(found.login && t(found.login));
    if (hasErrors(found)) {
      document.getElementById('lost-login')?.focus();
      return;
    }
    setBusy(true);
    setNotice(null);
    try {
      await sessionReady();
      const { sendPasswordResetEmail } = await request('ResetPasswordEmail', { username: login.trim() });
      setNotice(
        sendPasswordResetEmail?.success
          ? { tone: 'success', text: t('account.lost.sent') }
          : { tone: 'error', text: t('account.lost.sendFailed') },
      );
    } catch (caught) {
      setNotice({ tone: 'error', text: accountErrorText(caught, t, 'account.lost.sendFailed') });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate className="max-w-md space-y-4" data-lost-request aria-busy={busy}>
      <p className="text-sm text-gray-700">{intro}</p>
      <TextField
        id="lost-login"
        label={t('account.field.usernameOrEmail')}
        value={login}
        onChange={setLogin}
        autoComplete="username"
        required
        error={error}
      />
      <FormNotice notice={notice} />
      <button type="submit" className={BUTTON} disabled={busy}>
        {busy ? t('account.lost.sending') : t('account.lost.send')}
      </button>
    </form>
  );
}

function ResetForm({
  t,
  link,
  localePrefix,
  onInvalid,
}: {
  t: Lookup;
  link: { key: string; login: string };
  localePrefix: string;
  onInvalid: () => void;
}) {
  const [form, setForm] = useState({ current: '', password: '', confirm: '' });
  const [errors, setErrors] = useState<FormErrors>({});
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = validatePasswordChange(form, { needsCurrent: false });
    setErrors(found);
    if (hasErrors(found)) {
      setNotice(
        found.confirm === 'account.error.passwordMismatch'
          ? { tone: 'error', text: t('account.error.passwordMismatch') }
          : null,
      );
      document.getElementById(found.password ? 'reset-password' : 'reset-confirm')?.focus();
      return;
    }
    setBusy(true);
    setNotice(null);
    try {
      await sessionReady();
      const { resetUserPassword } = await request('ResetPasswordKey', {
        key: link.key,
        login: link.login,
        password: form.password,
      });
      if (!resetUserPassword?.user?.id) throw new Error('');
      setDone(true);
      setNotice({ tone: 'success', text: t('account.reset.done') });
    } catch (caught) {
      if (isInvalidResetLink(caught)) {
        onInvalid();
        return;
      }
      setNotice({
        tone: 'error',
        text:
          caught instanceof Error && caught.message
            ? accountErrorText(caught, t, 'account.reset.failed')
            : t('account.reset.failed'),
      });
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <div className="space-y-4" data-reset-done>
        <FormNotice notice={notice} />
        <a href={`${localePrefix}/my-account`} className={BUTTON}>
          {t('account.reset.toLogin')}
        </a>
      </div>
    );
  }
  return (
    <form onSubmit={submit} noValidate className="max-w-md space-y-4" data-reset-form aria-busy={busy}>
      <input type="text" name="username" autoComplete="username" value={link.login} readOnly hidden />
      <NewPasswordFields
        t={t}
        idPrefix="reset"
        password={form.password}
        confirm={form.confirm}
        errors={errors}
        onChange={(field, v) => setForm({ ...form, [field]: v })}
      />
      <FormNotice notice={notice} />
      <button type="submit" className={BUTTON} disabled={busy}>
        {busy ? t('account.reset.saving') : t('account.reset.save')}
      </button>
    </form>
  );
}

export default function LostPassword({ strings, localePrefix }: LostPasswordProps) {
  const t = createLookup(strings);
  const [link, setLink] = useState<ReturnType<typeof resetLinkParams> | undefined>(undefined);
  useEffect(() => setLink(resetLinkParams(window.location.search)), []);

  if (link === undefined) return <p className="text-sm text-gray-600">{t('account.loading')}</p>;
  if (link === 'invalid') {
    return (
      <Section title={t('account.reset.invalidTitle')} id="reset-invalid-title">
        <div className="space-y-5" data-reset-invalid>
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
            {t('account.reset.invalid')}
          </p>
          <RequestForm t={t} intro={t('account.reset.requestNew')} />
        </div>
      </Section>
    );
  }
  if (link) {
    return (
      <Section title={t('account.reset.title')} id="reset-title">
        <ResetForm t={t} link={link} localePrefix={localePrefix} onInvalid={() => setLink('invalid')} />
      </Section>
    );
  }
  return (
    <Section title={t('account.lost.title')} id="lost-title">
      <RequestForm t={t} intro={t('account.lost.intro')} />
      <p className="mt-6 text-sm">
        <a href={`${localePrefix}/my-account`} className={LINK}>
          {t('account.lost.back')}
        </a>
      </p>
    </Section>
  );
}
