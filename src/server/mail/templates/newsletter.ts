/**
 * The newsletter's mails, in the language of the form the address was entered in: the double opt-in
 * confirmation and the welcome with its unsubscribe link.
 */
import { DEFAULT_LOCALE, type LocaleCode } from '../../../lib/i18n/locales.ts';
import { html, requireHttpUrl } from '../html.ts';
import { blocks, DEFAULT_BRAND, type Brand } from '../layout.ts';
import { compose, mailLanguage, mailText, type EmailContent } from './shared.ts';

export type NewsletterConfirmInput = {
  confirmUrl: string;
  /** The language of the form the address was entered in: the mail is written in it (default English). */
  locale?: LocaleCode;
};

export function newsletterConfirm(input: NewsletterConfirmInput, brand: Brand = DEFAULT_BRAND): EmailContent {
  const confirmUrl = requireHttpUrl(input.confirmUrl, 'confirmUrl');
  const locale = input.locale ?? DEFAULT_LOCALE.code;
  const say = mailText(locale);
  const shop = brand.shopName;
  const ignore = say('newsletter.ignore');
  const text = [say('newsletter.askLink', { shop }), '', confirmUrl, '', ignore].join('\n');
  const bodyHtml = html`${blocks.paragraph(say('newsletter.ask', { shop }))}
${blocks.button(confirmUrl, say('newsletter.button'))}
${blocks.fallbackLink(confirmUrl, say('fallbackLink'))}
${blocks.muted(ignore)}`;
  return compose(say('newsletter.subject', { shop }), {
    brand,
    preheader: say('newsletter.preheader'),
    heading: say('newsletter.heading'),
    bodyHtml,
    bodyText: text,
    footerNote: say('newsletter.footer', { shop }),
    language: mailLanguage(locale),
  });
}

export type NewsletterWelcomeInput = {
  unsubscribeUrl: string;
  /**
   * true when the unsubscribe URL also accepts a body-less POST (RFC 8058 one-click), which large mailbox
   * providers ask bulk senders for; only claim it when the route really does it.
   */
  oneClickUnsubscribe?: boolean;
  /** The subscriber's language: the mail is written in it (default English). */
  locale?: LocaleCode;
};

export function newsletterWelcome(input: NewsletterWelcomeInput, brand: Brand = DEFAULT_BRAND): EmailContent {
  const unsubscribeUrl = requireHttpUrl(input.unsubscribeUrl, 'unsubscribeUrl');
  const locale = input.locale ?? DEFAULT_LOCALE.code;
  const say = mailText(locale);
  const shop = brand.shopName;
  const intro = say('welcome.intro', { shop });
  const text = [intro, '', say('welcome.unsubscribeLink', { url: unsubscribeUrl })].join('\n');
  // The sentence links its word for unsubscribing in the HTML version: it is split where that word goes.
  const [before = '', after = ''] = say('welcome.changedMind').split('{link}');
  const bodyHtml = html`${blocks.paragraph(intro)}
${blocks.muted(before, html`<a href="${unsubscribeUrl}" style="color:${blocks.colors.accent};">${say('welcome.unsubscribe')}</a>`, after)}`;
  const headers: Record<string, string> = { 'List-Unsubscribe': `<${unsubscribeUrl}>` };
  if (input.oneClickUnsubscribe) headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
  return compose(
    say('welcome.subject', { shop }),
    {
      brand,
      preheader: say('welcome.preheader'),
      heading: say('welcome.heading'),
      bodyHtml,
      bodyText: text,
      footerNote: say('welcome.footer', { shop }),
      language: mailLanguage(locale),
    },
    { headers },
  );
}
