/**
 * /my-account/link-account?key=… from the e-mail that completes linking a provider login to an existing
 * account. Nothing happens on load (mail scanners open links too): the page says what linking does (it
 * ends every other login of the account and removes its password) and the shopper confirms with the
 * button; then they are logged in and go to their account. The engine accepts the key only in the
 * browser that started the provider login, once, before it expires; otherwise the page says why.
 */
import { useEffect, useState } from 'react';
import { createLookup, type Strings } from '../../lib/i18n/lookup';
import { linkAccountFromEmail, NoViewerError } from '../../stores/account';
import { sessionReady } from '../../stores/session';
import { accountErrorText } from './messages';
import { emailLinkKey } from './navigation';
import { BUTTON, FormNotice, LINK, type Notice } from './ui';

export interface LinkAccountFromEmailProps {
  strings: Strings;
  localePrefix: string;
}

export default function LinkAccountFromEmail({ strings, localePrefix }: LinkAccountFromEmailProps) {
  const t = createLookup(strings);
  const [key, setKey] = useState<string | 'invalid' | null | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);

  useEffect(() => {
    const found = emailLinkKey(window.location.search);
    setKey(found);
    // The key is a login: keep it out of the history and out of any later Referer.
    if (found) window.history.replaceState(null, '', window.location.pathname);
  }, []);

  const confirm = async () => {
    if (busy || !key || key === 'invalid') return;
    setBusy(true);
    setNotice({ tone: 'info', text: t('account.link.linking') });
    try {
      await sessionReady();
      await linkAccountFromEmail(key);
      window.location.replace(`${localePrefix}/my-account`);
    } catch (caught) {
      setNotice({
        tone: 'error',
        text:
          caught instanceof NoViewerError
            ? t('account.error.noViewer')
            : accountErrorText(caught, t, 'account.link.failed'),
      });
      setBusy(false);
    }
  };

  if (key === undefined) return <p className="text-sm text-gray-600">{t('account.loading')}</p>;
  if (key === null || key === 'invalid') {
    return (
      <div className="max-w-xl space-y-4" data-link-email-invalid>
        <FormNotice notice={{ tone: 'error', text: t('account.link.expired') }} />
        <a href={`${localePrefix}/my-account`} className={`text-sm ${LINK}`}>
          {t('account.oauth.back')}
        </a>
      </div>
    );
  }
  return (
    <div className="max-w-xl space-y-4" data-link-email>
      <p className="text-sm text-gray-700">{t('account.linkEmail.intro')}</p>
      <FormNotice notice={notice} />
      <div className="flex flex-wrap items-center gap-4">
        <button type="button" className={BUTTON} onClick={confirm} disabled={busy} data-link-email-confirm>
          {busy ? t('account.link.linking') : t('account.link.submit')}
        </button>
        <a href={`${localePrefix}/my-account`} className={`text-sm ${LINK}`}>
          {t('account.oauth.back')}
        </a>
      </div>
    </div>
  );
}
