/**
 * "Your data" on the account's details tab: downloads everything the shop keeps about the customer as one
 * JSON file (getPersonalDataExport; the engine assembles it in src/server/privacy/export.ts), the right of
 * access and to data portability without writing to support.
 */
import { useState } from 'react';
import type { Lookup } from '../../lib/i18n/lookup';
import { accountRequest } from '../../stores/account';
import { BUTTON_SECONDARY, FormNotice, Section, type Notice } from './ui';

/** Saves `text` as a file the browser downloads. */
function saveFile(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export default function PersonalDataSection({ t }: { t: Lookup }) {
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);

  async function download() {
    setBusy(true);
    setNotice(null);
    try {
      const { personalDataExport } = await accountRequest('getPersonalDataExport');
      if (!personalDataExport) throw new Error('no export');
      saveFile(`meshfront-data-${new Date().toISOString().slice(0, 10)}.json`, personalDataExport);
      setNotice({ tone: 'success', text: t('account.data.downloaded') });
    } catch {
      setNotice({ tone: 'error', text: t('account.data.failed') });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Section title={t('account.data.title')} id="details-data-title">
      <p className="mb-4 text-sm text-gray-700">{t('account.data.text')}</p>
      <div className="space-y-3">
        <FormNotice notice={notice} />
        <button type="button" className={BUTTON_SECONDARY} onClick={download} disabled={busy} data-personal-data>
          {busy ? t('account.data.preparing') : t('account.data.download')}
        </button>
      </div>
    </Section>
  );
}
