/**
 * "Delete my account" on the account's details tab, below "Download my data": the right to erasure
 * without writing to support. It says what goes and what the shop keeps (orders and invoices, for the tax
 * office), then asks for the password and a tick before anything happens. An account without a password
 * (provider logins) asks for a link by e-mail instead; the link opens this tab with its key, and the
 * section asks once more. Once the engine erased the account the login is forgotten (the page shows the
 * login form) and a banner confirms it.
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { Lookup } from '../../lib/i18n/lookup';
import { deleteAccount, sendAccountDeletionLink } from '../../stores/account';
import { raiseAlert } from '../../stores/alert';
import { accountErrorText } from './messages';
import { BUTTON_SECONDARY, FormNotice, LINK, Section, TextField, type Notice } from './ui';

/** The query parameter of the e-mailed link (src/server/auth/account-deletion.ts). */
const LINK_PARAM = 'delete-account';

const BUTTON_DANGER =
  'inline-flex items-center justify-center rounded-full bg-red-700 px-6 py-2.5 text-sm font-semibold text-white hover:bg-red-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700 disabled:opacity-60';

/** Takes the link's key out of the address bar (it must not stay in the history). */
function dropLinkParam(): void {
  const url = new URL(window.location.href);
  if (!url.searchParams.has(LINK_PARAM)) return;
  url.searchParams.delete(LINK_PARAM);
  window.history.replaceState(window.history.state, '', url);
}

export default function AccountDeletionSection({ t }: { t: Lookup }) {
  const [open, setOpen] = useState(false);
  const [linkKey, setLinkKey] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const [passwordError, setPasswordError] = useState<string | undefined>();

  useEffect(() => {
    const key = new URL(window.location.href).searchParams.get(LINK_PARAM);
    if (key) {
      setLinkKey(key);
      setOpen(true);
      dropLinkParam();
    }
  }, []);

  function close() {
    setOpen(false);
    setLinkKey(null);
    setPassword('');
    setConfirmed(false);
    setNotice(null);
    setPasswordError(undefined);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    setPasswordError(undefined);
    if (!linkKey && !password) {
      setPasswordError(t('account.error.required'));
      return;
    }
    if (!confirmed) {
      setNotice({ tone: 'error', text: t('account.delete.confirmRequired') });
      return;
    }
    setBusy(true);
    try {
      await deleteAccount(linkKey ? { confirmationKey: linkKey } : { password });
      // As after a logout: the tab (and the link's key) leave the URL, the login form takes the account's place.
      window.history.replaceState(null, '', window.location.pathname);
      raiseAlert({ type: 'success', message: t('account.delete.done'), timeout: 0 });
    } catch (error) {
      setNotice({ tone: 'error', text: accountErrorText(error, t, 'account.delete.failed') });
      setBusy(false);
    }
  }

  async function askForLink() {
    setNotice(null);
    setBusy(true);
    try {
      await sendAccountDeletionLink();
      setNotice({ tone: 'success', text: t('account.delete.linkSent') });
    } catch (error) {
      setNotice({ tone: 'error', text: accountErrorText(error, t, 'account.delete.failed') });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Section title={t('account.delete.title')} id="details-delete-title">
      <div className="space-y-3 text-sm text-gray-700">
        <p>{t('account.delete.text')}</p>
        <p>{t('account.delete.orders')}</p>
      </div>
      {!open ? (
        <button type="button" className={`${BUTTON_SECONDARY} mt-4`} onClick={() => setOpen(true)} data-delete-account>
          {t('account.delete.start')}
        </button>
      ) : (
        <form className="mt-4 space-y-4" onSubmit={submit} noValidate data-delete-account-form>
          {linkKey ? (
            <p className="text-sm font-medium text-gray-900">{t('account.delete.fromLink')}</p>
          ) : (
            <TextField
              id="delete-account-password"
              label={t('account.delete.password')}
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={setPassword}
              error={passwordError}
              hint={t('account.delete.passwordHint')}
              required
            />
          )}
          <label className="flex items-start gap-2 text-sm text-gray-800">
            <input
              type="checkbox"
              className="mt-0.5"
              checked={confirmed}
              onChange={(e) => setConfirmed(e.target.checked)}
              name="delete-account-confirm"
            />
            <span>{t('account.delete.confirm')}</span>
          </label>
          <FormNotice notice={notice} />
          <div className="flex flex-wrap items-center gap-3">
            <button type="submit" className={BUTTON_DANGER} disabled={busy} data-delete-account-submit>
              {busy ? t('account.delete.deleting') : t('account.delete.submit')}
            </button>
            <button type="button" className={BUTTON_SECONDARY} onClick={close} disabled={busy}>
              {t('account.delete.cancel')}
            </button>
          </div>
          {!linkKey && (
            <p className="text-sm text-gray-700">
              {t('account.delete.noPassword')}{' '}
              <button type="button" className={LINK} onClick={askForLink} disabled={busy} data-delete-account-link>
                {t('account.delete.sendLink')}
              </button>
            </p>
          )}
        </form>
      )}
    </Section>
  );
}
