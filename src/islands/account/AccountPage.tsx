/**
 * /my-account: starts the session at once (the page is useless without it), then shows the login and
 * register forms to a guest and the account to a customer. The static HTML is a loading state; the
 * viewer kept in the browser decides only after hydration, so the markup always matches.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { createLookup, type Strings } from '../../lib/i18n/lookup';
import { logout } from '../../stores/account';
import { sessionReady } from '../../stores/session';
import { $viewer } from '../../stores/viewer';
import AccountArea from './AccountArea';
import LoggedOut from './LoggedOut';
import { afterLogoutPath } from './navigation';
import { FormNotice, type Notice } from './ui';

export interface AccountPageProps {
  strings: Strings;
  localePrefix: string;
  /** BCP 47 tag of the page (dates, country names). */
  lang: string;
}

export default function AccountPage({ strings, localePrefix, lang }: AccountPageProps) {
  const t = createLookup(strings);
  const viewer = useStore($viewer);
  const [ready, setReady] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    let live = true;
    void sessionReady().finally(() => live && setReady(true));
    return () => {
      live = false;
    };
  }, []);

  const loggedIn = (message: string) => {
    setNotice({ tone: 'success', text: message });
    heading.current?.focus();
  };

  const leave = async () => {
    await logout();
    const next = afterLogoutPath(window.location.pathname, localePrefix);
    if (next) {
      window.location.assign(next);
      return;
    }
    // Staying on /my-account: drop the tab from the URL, the login form takes the account's place.
    window.history.replaceState(null, '', window.location.pathname);
    setNotice({ tone: 'success', text: t('account.loggedOut') });
    heading.current?.focus();
  };

  if (!ready) {
    return (
      <p className="text-sm text-gray-600" data-account-loading>
        {t('account.loading')}
      </p>
    );
  }
  return (
    <div data-account-ready={viewer ? 'customer' : 'guest'}>
      <h2 ref={heading} tabIndex={-1} className="sr-only">
        {viewer ? t('account.areaTitle') : t('account.guestTitle')}
      </h2>
      <div className="mb-4">
        <FormNotice notice={notice} />
      </div>
      {viewer ? (
        <AccountArea t={t} strings={strings} lang={lang} localePrefix={localePrefix} onLogout={leave} />
      ) : (
        <LoggedOut t={t} localePrefix={localePrefix} onLoggedIn={loggedIn} />
      )}
    </div>
  );
}
