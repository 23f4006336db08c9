/**
 * The account's e-mail address is not confirmed yet: a note in the account details, and the button that
 * sends the confirmation e-mail again (also on the confirmation page when its link no longer works).
 * Until the address is confirmed, a login provider with that address is linked to the account only with
 * its password or an e-mailed link.
 */
import { useStore } from '@nanostores/react';
import { useState } from 'react';
import type { Lookup } from '../../lib/i18n/lookup';
import { resendEmailVerification } from '../../stores/account';
import { $viewer } from '../../stores/viewer';
import { accountErrorText } from './messages';
import { BUTTON_SECONDARY, FormNotice, type Notice } from './ui';

/** "Send the confirmation e-mail again", with its own message region. */
export function ResendVerification({ t }: { t: Lookup }) {
  const viewer = useStore($viewer);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);

  const send = async () => {
    if (busy) return;
    setBusy(true);
    setNotice(null);
    try {
      if (!(await resendEmailVerification())) throw new Error('');
      setSent(true);
      setNotice({ tone: 'success', text: t('account.verify.resent', { email: viewer?.email ?? '' }) });
    } catch (caught) {
      setNotice({ tone: 'error', text: accountErrorText(caught, t, 'account.verify.resendFailed') });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="space-y-3">
      <button type="button" className={BUTTON_SECONDARY} onClick={send} disabled={busy || sent} data-verify-resend>
        {busy ? t('account.verify.resending') : t('account.verify.resend')}
      </button>
      <FormNotice notice={notice} />
    </div>
  );
}

/** Shown only while the viewer's address is known to be unconfirmed. */
export default function EmailVerificationNotice({ t }: { t: Lookup }) {
  const viewer = useStore($viewer);
  if (viewer?.emailVerified !== false) return null;
  return (
    <div
      className="mb-4 space-y-3 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900"
      data-email-unverified
    >
      <p>{t('account.verify.notice', { email: viewer.email ?? '' })}</p>
      <ResendVerification t={t} />
    </div>
  );
}
