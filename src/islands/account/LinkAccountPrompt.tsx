/**
 * After a provider login whose address already has an account that may not be linked to it yet (the
 * engine's accountLink): nobody is logged in. The shopper proves the account is theirs with its password
 * (linked, logged in), or asks for a link by e-mail to that address, to be opened in this browser. The
 * page says what the e-mailed link does: it ends the account's other logins and removes its password.
 */
import { useState, type FormEvent } from 'react';
import type { PendingAccountLink } from '../../graphql/shapes';
import type { Lookup } from '../../lib/i18n/lookup';
import { linkAccountWithPassword, NoViewerError, sendAccountLinkEmail } from '../../stores/account';
import { accountErrorText } from './messages';
import { BUTTON_SECONDARY, FormNotice, LINK, SubmitWithForgotPassword, TextField, type Notice } from './ui';

interface Props {
  t: Lookup;
  localePrefix: string;
  link: PendingAccountLink;
  /** Called once the link is made and the shopper logged in. */
  onLinked: () => void;
}

export default function LinkAccountPrompt({ t, localePrefix, link, onLinked }: Props) {
  const provider = link.providerName ?? '';
  const email = link.email ?? '';
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState<'password' | 'email' | null>(null);
  const [mailed, setMailed] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!password) {
      setError(t('account.error.required'));
      document.getElementById('link-password')?.focus();
      return;
    }
    setError(undefined);
    setBusy('password');
    setNotice({ tone: 'info', text: t('account.link.linking') });
    try {
      await linkAccountWithPassword(link.token, password);
      onLinked();
    } catch (caught) {
      setNotice({
        tone: 'error',
        text:
          caught instanceof NoViewerError
            ? t('account.error.noViewer')
            : accountErrorText(caught, t, 'account.link.failed'),
      });
    } finally {
      setBusy(null);
    }
  };

  const mail = async () => {
    if (busy) return;
    setBusy('email');
    setNotice(null);
    try {
      if (!(await sendAccountLinkEmail(link.token))) throw new Error('');
      setMailed(true);
      setNotice({ tone: 'success', text: t('account.link.sent', { email, provider }) });
    } catch (caught) {
      setNotice({ tone: 'error', text: accountErrorText(caught, t, 'account.link.sendFailed') });
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="space-y-5" data-link-account>
      <h2 className="text-lg font-semibold text-gray-900">{t('account.link.title', { provider })}</h2>
      <p className="text-sm text-gray-700">{t('account.link.intro', { email, provider })}</p>
      <form onSubmit={submit} noValidate className="max-w-md space-y-4" aria-busy={busy === 'password'}>
        {/* The account's e-mail, for password managers. */}
        <input type="text" name="username" autoComplete="username" value={email} readOnly hidden />
        <TextField
          id="link-password"
          label={t('account.field.password')}
          type="password"
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
          required
          error={error}
        />
        <SubmitWithForgotPassword
          label={busy === 'password' ? t('account.link.linking') : t('account.link.submit')}
          disabled={busy !== null}
          localePrefix={localePrefix}
          forgotLabel={t('account.forgotPassword')}
        />
      </form>
      <div className="max-w-md space-y-3 border-t border-gray-200 pt-4">
        <p className="text-sm text-gray-700">{t('account.link.emailIntro', { email })}</p>
        <button
          type="button"
          className={BUTTON_SECONDARY}
          onClick={mail}
          disabled={busy !== null || mailed}
          data-link-send-email
        >
          {busy === 'email' ? t('account.link.sending') : t('account.link.sendEmail')}
        </button>
      </div>
      <FormNotice notice={notice} />
      <a href={`${localePrefix}/my-account`} className={`inline-block text-sm ${LINK}`}>
        {t('account.oauth.back')}
      </a>
    </div>
  );
}
