/**
 * /my-account/verify-email?key=… from the confirmation e-mail. The engine confirms the address only for
 * the logged-in account the link was sent for (so whoever gets a mail for an account somebody else
 * created with their address cannot confirm it for them): a guest logs in here first, then the address
 * is confirmed at once. A used, expired, mangled or somebody else's link says so and offers a new one.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { createLookup, type Strings } from '../../lib/i18n/lookup';
import { verifyEmail } from '../../stores/account';
import { sessionReady } from '../../stores/session';
import { $viewer } from '../../stores/viewer';
import { ResendVerification } from './EmailVerificationNotice';
import { LoginForm } from './LoggedOut';
import { isInvalidVerificationLink } from './messages';
import { emailLinkKey } from './navigation';
import { BUTTON, FormNotice, LINK } from './ui';

export interface VerifyEmailProps {
  strings: Strings;
  localePrefix: string;
}

type State = 'loading' | 'login' | 'working' | 'done' | 'invalid' | 'failed';

export default function VerifyEmail({ strings, localePrefix }: VerifyEmailProps) {
  const t = createLookup(strings);
  const viewer = useStore($viewer);
  const [ready, setReady] = useState(false);
  const [key, setKey] = useState<string | 'invalid' | null | undefined>(undefined);
  const [state, setState] = useState<State>('loading');
  const started = useRef(false);

  useEffect(() => {
    setKey(emailLinkKey(window.location.search));
    let live = true;
    void sessionReady().finally(() => live && setReady(true));
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    if (!ready || key === undefined) return;
    if (key === null || key === 'invalid') {
      setState('invalid');
      return;
    }
    if (!viewer) {
      setState('login');
      return;
    }
    if (started.current) return;
    started.current = true;
    setState('working');
    verifyEmail(key)
      .then(() => setState('done'))
      .catch((error) => setState(isInvalidVerificationLink(error) ? 'invalid' : 'failed'));
  }, [ready, key, viewer]);

  const toAccount = (
    <a href={`${localePrefix}/my-account`} className={BUTTON}>
      {t('account.verify.toAccount')}
    </a>
  );

  if (state === 'loading' || state === 'working') {
    return (
      <p role="status" className="text-sm text-gray-700" data-verify-working>
        {state === 'working' ? t('account.verify.working') : t('account.loading')}
      </p>
    );
  }
  if (state === 'login') {
    return (
      <div className="max-w-md space-y-4" data-verify-login>
        <p className="text-sm text-gray-700">{t('account.verify.loginFirst')}</p>
        <LoginForm t={t} localePrefix={localePrefix} onLoggedIn={() => {}} />
      </div>
    );
  }
  if (state === 'done') {
    return (
      <div className="space-y-4" data-verify-done>
        <FormNotice notice={{ tone: 'success', text: t('account.verify.done') }} />
        {toAccount}
      </div>
    );
  }
  return (
    <div className="max-w-xl space-y-4" data-verify-invalid={state}>
      <FormNotice
        notice={{ tone: 'error', text: state === 'invalid' ? t('account.verify.invalid') : t('account.verify.failed') }}
      />
      {viewer && viewer.emailVerified !== true && <ResendVerification t={t} />}
      <p className="text-sm">
        <a href={`${localePrefix}/my-account`} className={LINK}>
          {t('account.verify.toAccount')}
        </a>
      </p>
    </div>
  );
}
