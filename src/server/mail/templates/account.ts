/** The account mails: password reset, address verification, linking a login provider, address changed. */
import { DEFAULT_LOCALE, type LocaleCode } from '../../../lib/i18n/locales.ts';
import { html, oneLine, requireHttpUrl } from '../html.ts';
import { blocks, DEFAULT_BRAND, type Brand } from '../layout.ts';
import { compose, formatDuration, greetingIn, mailLanguage, mailText, type EmailContent } from './shared.ts';

export type PasswordResetInput = {
  /** /my-account/lost-password?key=…&login=… */
  resetUrl: string;
  customerName?: string | null;
  /** How long the key stays valid, said in the message so nobody is surprised by an expired link. */
  validForMinutes?: number;
  /** The account's language: the mail is written in it (default English). */
  locale?: LocaleCode;
};

/** The account mails' texts in `locale`, with the greeting and the link's validity they share. */
function accountMailTexts(input: { customerName?: string | null; validForMinutes?: number; locale?: LocaleCode }) {
  const locale = input.locale ?? DEFAULT_LOCALE.code;
  const say = mailText(locale);
  return {
    say,
    greeting: greetingIn(locale, input.customerName),
    validity: input.validForMinutes
      ? say('linkExpires', { duration: formatDuration(input.validForMinutes, locale) })
      : say('linkOnce'),
    language: mailLanguage(locale),
  };
}

export function passwordReset(input: PasswordResetInput, brand: Brand = DEFAULT_BRAND): EmailContent {
  const resetUrl = requireHttpUrl(input.resetUrl, 'resetUrl');
  const { say, greeting, validity, language } = accountMailTexts(input);
  const shop = brand.shopName;
  const ignore = say('reset.ignore');
  const text = [greeting, '', say('reset.intro', { shop }), '', resetUrl, '', validity, ignore].join('\n');
  const bodyHtml = html`${blocks.paragraph(greeting)}
${blocks.paragraph(say('reset.introButton', { shop }))}
${blocks.button(resetUrl, say('reset.button'))}
${blocks.fallbackLink(resetUrl, say('fallbackLink'))}
${blocks.paragraph(validity)}
${blocks.muted(ignore)}`;
  return compose(say('reset.subject', { shop }), {
    brand,
    preheader: say('reset.preheader'),
    heading: say('reset.heading'),
    bodyHtml,
    bodyText: text,
    footerNote: say('reset.footer', { shop }),
    language,
  });
}

// ---------------------------------------------------------------------------------------------------
// E-mail address verification

export type EmailVerificationInput = {
  /** /my-account/verify-email?key=… */
  verifyUrl: string;
  customerName?: string | null;
  validForMinutes?: number;
  /** The account's language: the mail is written in it (default English). */
  locale?: LocaleCode;
};

/**
 * Sent on registration (account page or checkout) and on request from the account details. The link
 * works only while logged in to the account it was sent for, which the message says, so that a person
 * who receives it for an account they did not create cannot confirm it for someone else.
 */
export function emailVerification(input: EmailVerificationInput, brand: Brand = DEFAULT_BRAND): EmailContent {
  const verifyUrl = requireHttpUrl(input.verifyUrl, 'verifyUrl');
  const { say, greeting, validity, language } = accountMailTexts(input);
  const shop = brand.shopName;
  const ask = say('verify.ask', { shop });
  const ignore = say('verify.ignore', { shop });
  const text = [greeting, '', ask, '', verifyUrl, '', validity, ignore].join('\n');
  const bodyHtml = html`${blocks.paragraph(greeting)}
${blocks.paragraph(ask)}
${blocks.button(verifyUrl, say('verify.button'))}
${blocks.fallbackLink(verifyUrl, say('fallbackLink'))}
${blocks.paragraph(validity)}
${blocks.muted(ignore)}`;
  return compose(say('verify.subject', { shop }), {
    brand,
    preheader: say('verify.preheader'),
    heading: say('verify.heading'),
    bodyHtml,
    bodyText: text,
    footerNote: say('verify.footer', { shop }),
    language,
  });
}

// ---------------------------------------------------------------------------------------------------
// Linking a login provider to an existing account

export type AccountLinkInput = {
  /** /my-account/link-account?key=… */
  linkUrl: string;
  /** The login provider's name as on the login button, e.g. "Google". */
  providerName: string;
  customerName?: string | null;
  validForMinutes?: number;
  /** The account's language: the mail is written in it (default English). */
  locale?: LocaleCode;
};

/**
 * Sent when someone who signed in with a login provider using this address asks to link that login to
 * the existing account by e-mail instead of with its password. Opening the link takes the account over
 * for the mailbox's owner, so the message says what else it does: every other login ends and the
 * account's password is removed.
 */
export function accountLink(input: AccountLinkInput, brand: Brand = DEFAULT_BRAND): EmailContent {
  const linkUrl = requireHttpUrl(input.linkUrl, 'linkUrl');
  const provider = oneLine(input.providerName, 60);
  const { say, greeting, validity, language } = accountMailTexts(input);
  const shop = brand.shopName;
  const ask = say('link.ask', { provider, shop });
  // The password link is named as the login form names it, so the reader finds it there.
  const effect = say('link.effect', { provider, forgot: { ui: 'account.forgotPassword' } });
  const ignore = say('link.ignore');
  const text = [greeting, '', ask, '', linkUrl, '', effect, '', validity, ignore].join('\n');
  const bodyHtml = html`${blocks.paragraph(greeting)}
${blocks.paragraph(ask)}
${blocks.button(linkUrl, say('link.button', { provider }))}
${blocks.fallbackLink(linkUrl, say('fallbackLink'))}
${blocks.paragraph(effect)}
${blocks.paragraph(validity)}
${blocks.muted(ignore)}`;
  return compose(say('link.subject', { provider, shop }), {
    brand,
    preheader: say('link.preheader', { shop }),
    heading: say('link.heading', { provider }),
    bodyHtml,
    bodyText: text,
    footerNote: say('link.footer', { provider, shop }),
    language,
  });
}

// ---------------------------------------------------------------------------------------------------
// E-mail address changed (to the previous address)

export type EmailChangedInput = {
  /** The new address with most of it hidden (the mail goes to the old one, which may not be the owner's any more). */
  maskedNewAddress: string;
  /** /my-account/email-change-report?token=…: restores this address, ends every login, mails a reset link. */
  reportUrl: string;
  customerName?: string | null;
  /** How long the report link works. */
  validForDays?: number;
  /** The account's language: the mail is written in it (default English). */
  locale?: LocaleCode;
};

/**
 * Sent to the previous address when an account's e-mail address changes: the owner learns of a change
 * they did not make while the old address still reaches them, and can undo it with one link.
 */
export function emailChanged(input: EmailChangedInput, brand: Brand = DEFAULT_BRAND): EmailContent {
  const reportUrl = requireHttpUrl(input.reportUrl, 'reportUrl');
  const address = oneLine(input.maskedNewAddress, 120);
  const { say, greeting, language } = accountMailTexts({ customerName: input.customerName, locale: input.locale });
  const shop = brand.shopName;
  const news = say('changed.news', { shop, address });
  const fine = say('changed.fine');
  const notMe = say('changed.notMe');
  const days = input.validForDays;
  const validity = !days
    ? ''
    : days === 1
      ? say('changed.validityOneDay')
      : say('changed.validityDays', { count: days });
  const text = [greeting, '', news, '', fine, notMe, '', reportUrl, ...(validity ? ['', validity] : [])].join('\n');
  const bodyHtml = html`${blocks.paragraph(greeting)}
${blocks.paragraph(news)}
${blocks.paragraph(fine)}
${blocks.paragraph(notMe)}
${blocks.button(reportUrl, say('changed.button'))}
${blocks.fallbackLink(reportUrl, say('fallbackLink'))}
${validity ? blocks.muted(validity) : ''}`;
  return compose(say('changed.subject', { shop }), {
    brand,
    preheader: say('changed.preheader', { address }),
    heading: say('changed.heading'),
    bodyHtml,
    bodyText: text,
    footerNote: say('changed.footer', { shop }),
    language,
  });
}

// ---------------------------------------------------------------------------------------------------
// Account deleted (the right to erasure)

export type AccountDeletedInput = {
  customerName?: string | null;
  /** How many orders stay, anonymised, with their invoices as issued: the mail says so when there are any. */
  keptOrders: number;
  /** The account's language: the mail is written in it (default English). */
  locale?: LocaleCode;
};

/**
 * The last mail to the address of an account that was deleted (by its owner or, on their request, by
 * the shop): what went, what the shop still keeps and why, and that the address is free to register again.
 * It carries no link: nothing is left to act on.
 */
export function accountDeleted(input: AccountDeletedInput, brand: Brand = DEFAULT_BRAND): EmailContent {
  const { say, greeting, language } = accountMailTexts({ customerName: input.customerName, locale: input.locale });
  const shop = brand.shopName;
  const paragraphs = [
    say('deleted.done', { shop }),
    ...(input.keptOrders > 0 ? [say('deleted.orders')] : []),
    say('deleted.again', { shop }),
  ];
  const notMe = say('deleted.notMe');
  const text = [greeting, '', ...paragraphs.flatMap((p) => [p, '']), notMe].join('\n');
  const bodyHtml = html`${blocks.paragraph(greeting)}
${paragraphs.map((p) => blocks.paragraph(p))}
${blocks.muted(notMe)}`;
  return compose(say('deleted.subject', { shop }), {
    brand,
    preheader: say('deleted.preheader'),
    heading: say('deleted.heading'),
    bodyHtml,
    bodyText: text,
    footerNote: say('deleted.footer', { shop }),
    language,
  });
}

// ---------------------------------------------------------------------------------------------------
// Confirming the deletion of an account without a password

export type AccountDeletionLinkInput = {
  /** /my-account?tab=details&delete-account=…: asks once more, in the browser that is logged in. */
  confirmUrl: string;
  customerName?: string | null;
  validForMinutes?: number;
  /** The account's language: the mail is written in it (default English). */
  locale?: LocaleCode;
};

/**
 * An account that logs in through a login provider has no password to confirm its deletion with: the
 * link proves the mailbox is the account holder's. It works only in a browser logged in to that account,
 * and the page asks once more before anything is deleted.
 */
export function accountDeletionLink(input: AccountDeletionLinkInput, brand: Brand = DEFAULT_BRAND): EmailContent {
  const confirmUrl = requireHttpUrl(input.confirmUrl, 'confirmUrl');
  const { say, greeting, validity, language } = accountMailTexts(input);
  const shop = brand.shopName;
  const ask = say('deleteLink.ask', { shop });
  const ignore = say('deleteLink.ignore');
  const text = [greeting, '', ask, '', confirmUrl, '', validity, ignore].join('\n');
  const bodyHtml = html`${blocks.paragraph(greeting)}
${blocks.paragraph(ask)}
${blocks.button(confirmUrl, say('deleteLink.button'))}
${blocks.fallbackLink(confirmUrl, say('fallbackLink'))}
${blocks.paragraph(validity)}
${blocks.muted(ignore)}`;
  return compose(say('deleteLink.subject', { shop }), {
    brand,
    preheader: say('deleteLink.preheader'),
    heading: say('deleteLink.heading'),
    bodyHtml,
    bodyText: text,
    footerNote: say('deleteLink.footer', { shop }),
    language,
  });
}
