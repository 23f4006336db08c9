/**
 * /my-account/email-change-report?token=… — the "this wasn't me" link of the notice an e-mail change
 * sends to the previous address. Nothing happens on opening the page (mail scanners open every link):
 * the shopper confirms with the button, and the engine then restores the previous address, ends every
 * login of the account, retires its password and mails a link to choose a new one.
 */
import { useEffect, useState } from 'react';
import { request } from '../../graphql/client';
import { createLookup, type Strings } from '../../lib/i18n/lookup';
import { sessionReady } from '../../stores/session';
import { accountErrorText, isDeadReportLink } from './messages';
import { emailReportToken } from './navigation';
import { BUTTON, FormNotice, LINK, Section, type Notice } from './ui';

export interface EmailChangeReportProps {
  strings: Strings;
  localePrefix: string;
}

export default function EmailChangeReport({ strings, localePrefix }: EmailChangeReportProps) {
  const t = createLookup(strings);
  const [token, setToken] = useState<ReturnType<typeof emailReportToken> | undefined>(undefined);
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
  // 'done' after the restore; 'dead' when the engine says the link can do nothing more.
  const [done, setDone] = useState<false | 'done' | 'dead'>(false);
  useEffect(() => setToken(emailReportToken(window.location.search)), []);

  const confirm = async () => {
    if (busy || typeof token !== 'string' || token === 'invalid') return;
    setBusy(true);
    setNotice(null);
    try {
      await sessionReady();
      const { reportEmailChange } = await request('reportEmailChange', { token });
      if (!reportEmailChange?.success) throw new Error('');
      setDone('done');
      setNotice({ tone: 'success', text: t('account.emailReport.done', { email: reportEmailChange.email ?? '' }) });
    } catch (caught) {
      if (isDeadReportLink(caught)) setDone('dead');
      setNotice({ tone: 'error', text: accountErrorText(caught, t, 'account.emailReport.failed') });
    } finally {
      setBusy(false);
    }
  };

  if (token === undefined) return <p className="text-sm text-gray-600">{t('account.loading')}</p>;
  const back = (
    <p className="mt-6 text-sm">
      <a href={`${localePrefix}/my-account`} className={LINK}>
        {t('account.oauth.back')}
      </a>
    </p>
  );
  if (token === null || token === 'invalid') {
    return (
      <Section title={t('account.emailReport.title')} id="email-report-title">
        <p
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
          data-email-report-invalid
        >
          {t(token === null ? 'account.emailReport.missing' : 'account.emailReport.invalid')}
        </p>
        {back}
      </Section>
    );
  }
  return (
    <Section title={t('account.emailReport.title')} id="email-report-title">
      <div className="max-w-xl space-y-4" data-email-report aria-busy={busy}>
        {!done && <p className="text-sm text-gray-700">{t('account.emailReport.intro')}</p>}
        <FormNotice notice={notice} />
        {done === 'done' && (
          <a href={`${localePrefix}/my-account/lost-password`} className={BUTTON}>
            {t('account.emailReport.newPassword')}
          </a>
        )}
        {!done && (
          <>
            <button type="button" className={BUTTON} disabled={busy} onClick={confirm} data-email-report-confirm>
              {busy ? t('account.emailReport.working') : t('account.emailReport.confirm')}
            </button>
            <p className="text-sm text-gray-600">{t('account.emailReport.madeIt')}</p>
          </>
        )}
      </div>
      {back}
    </Section>
  );
}
