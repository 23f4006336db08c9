// The mails of "Delete my account": the confirmation that the account was deleted and, for an account
// without a password, the link that confirms the deletion. Each is written in all six shop languages
// (never the English fallback outside English), names what the shop keeps only when orders were kept,
// and the link mail carries the link in both its text and its HTML.
import { describe, expect, it } from 'vitest';
import { translate } from '../../src/lib/i18n/index.ts';
import { LOCALES } from '../../src/lib/i18n/locales.ts';
import { accountDeleted, accountDeletionLink } from '../../src/server/mail/index.ts';

describe('account deletion mails', () => {
  it.each(LOCALES.map((l) => l.code))('the confirmation is written in %s', (code) => {
    const mail = accountDeleted({ customerName: 'Ada', keptOrders: 2, locale: code });
    expect(mail.subject).toBe(translate(code, 'engine.mail.deleted.subject', { shop: 'Meshfront' }));
    expect(mail.text).toContain(translate(code, 'engine.mail.deleted.orders'));
    expect(mail.text).toContain(translate(code, 'engine.mail.deleted.again', { shop: 'Meshfront' }));
    if (code !== 'en_US') {
      expect(mail.subject).not.toBe(translate('en_US', 'engine.mail.deleted.subject', { shop: 'Meshfront' }));
      expect(translate(code, 'engine.mail.deleteLink.ask', { shop: 'M' })).not.toBe(
        translate('en_US', 'engine.mail.deleteLink.ask', { shop: 'M' }),
      );
    }
  });

  it('says nothing about kept orders when there were none', () => {
    const mail = accountDeleted({ keptOrders: 0, locale: 'de_DE' });
    expect(mail.text).not.toContain(translate('de_DE', 'engine.mail.deleted.orders'));
    expect(mail.html).not.toContain('Rechnungen');
  });

  it('the confirmation link is in the text and the button, and must be an http(s) URL', () => {
    const url = 'https://shop.example/fr/my-account?tab=details&delete-account=abc.def';
    const mail = accountDeletionLink({ confirmUrl: url, validForMinutes: 30, locale: 'fr_FR' });
    expect(mail.text).toContain(url);
    expect(mail.html).toContain('delete-account=abc.def');
    expect(mail.subject).toBe(translate('fr_FR', 'engine.mail.deleteLink.subject', { shop: 'Meshfront' }));
    expect(() => accountDeletionLink({ confirmUrl: 'javascript:alert(1)' })).toThrow();
  });
});
