/// <reference types="astro/client" />
/**
 * Loads the ALTCHA widget (the `<altcha-widget>` custom element) for the contact form — imported lazily
 * by AltchaCheck.tsx, only when the shop uses the self-hosted bot check, so pages without the form and
 * shops on reCAPTCHA never download it.
 *
 * The "external" build of the widget is used: it injects no inline <style> and creates no worker from a
 * blob: URL. Its stylesheet is a normal CSS file and the PBKDF2 solver runs in a worker script served
 * from this site, so the Content-Security-Policy needs nothing beyond 'self' for it (src/lib/http/csp.ts).
 * The stylesheet is linked from here when the widget loads: imported as CSS, the build would put it into
 * the <head> of every page that has the contact form (the modal is on every page).
 * The labels come from the page's locale strings (contact.altcha.*), not from the widget's own bundle.
 */
import 'altcha/external';
import stylesheetUrl from 'altcha/altcha.css?url';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';
import type { Lookup } from '../../lib/i18n/lookup.ts';

/** Settles once the widget's stylesheet is in (it shows unstyled until then). */
export const stylesheetLoaded = new Promise<void>((resolve, reject) => {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = stylesheetUrl;
  link.onload = () => resolve();
  link.onerror = () => reject(new Error('the ALTCHA stylesheet could not be loaded'));
  document.head.append(link);
});

/** The only algorithm the engine issues (src/server/bot-check/altcha.ts). */
const ALGORITHM = 'PBKDF2/SHA-256';

globalThis.$altcha.algorithms.set(ALGORITHM, () => new Pbkdf2Worker());

const escapeAttribute = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** Registers the translated labels under the page's language and returns that language code for the widget. */
export function registerLabels(t: Lookup): string {
  const language = (document.documentElement.lang || 'en').split('-')[0]!.toLowerCase();
  // The widget renders its footer as HTML: the link is built here, the translation only places it.
  const altchaLink = `<a href="https://altcha.org/" target="_blank" rel="noopener noreferrer" tabindex="-1" aria-label="${escapeAttribute(t('contact.altcha.ariaLinkLabel'))}">ALTCHA</a>`;
  globalThis.$altcha.i18n.set(language, {
    // Labels of features this shop does not use (code challenges) keep the widget's English.
    ...globalThis.$altcha.i18n.get('en'),
    ariaLinkLabel: t('contact.altcha.ariaLinkLabel'),
    error: t('contact.altcha.error'),
    expired: t('contact.altcha.expired'),
    footer: t('contact.altcha.footer', { altcha: altchaLink }),
    label: t('contact.altcha.label'),
    loading: t('contact.altcha.loading'),
    reload: t('contact.altcha.reload'),
    verificationRequired: t('contact.altcha.verificationRequired'),
    verified: t('contact.altcha.verified'),
    verify: t('contact.altcha.verify'),
    verifying: t('contact.altcha.verifying'),
    waitAlert: t('contact.altcha.waitAlert'),
  });
  return language;
}
