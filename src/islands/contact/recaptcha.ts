/**
 * The contact form's bot check. The form asks the server which check it runs (GET
 * /api/contact-form/config — so one build works with any setup, and tests can point the script at a local
 * stand-in): reCAPTCHA v3 (a site key and script), ALTCHA (a challenge URL for the self-hosted widget,
 * AltchaCheck.tsx), or none (development without a bot check).
 *
 * reCAPTCHA tokens: nothing loads until the form is first used and the visitor has accepted reCAPTCHA in
 * the privacy settings (src/stores/consent.ts: the shop has a first-party check, so Google's is not
 * strictly necessary and needs consent); then the script loads with `?render=<site key>&hl=id`. Without
 * reCAPTCHA no script loads and no token is sent.
 */
import { allows } from '../../stores/consent.ts';

type Grecaptcha = {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
};

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

type RecaptchaConfig = { siteKey: string; scriptUrl: string } | null;

export type BotCheckConfig = {
  recaptcha: RecaptchaConfig;
  altcha: { challengeUrl: string } | null;
};

let configPromise: Promise<BotCheckConfig> | null = null;
let scriptPromise: Promise<Grecaptcha> | null = null;

/** Which bot check the server runs (fetched once per page; a failure is retried on the next call). */
export function loadBotCheckConfig(): Promise<BotCheckConfig> {
  configPromise ??= fetch('/api/contact-form/config', { headers: { accept: 'application/json' } })
    .then((r) => {
      if (!r.ok) throw new Error(`contact form config: HTTP ${r.status}`);
      return r.json() as Promise<Partial<BotCheckConfig>>;
    })
    .then((body) => ({ recaptcha: body.recaptcha ?? null, altcha: body.altcha ?? null }))
    .catch((err) => {
      configPromise = null; // try again on the next submit
      throw err;
    });
  return configPromise;
}

const loadConfig = () => loadBotCheckConfig().then((config) => config.recaptcha);

/** Thrown by getBotToken when reCAPTCHA is configured but the visitor has not accepted it. */
export class ConsentRequiredError extends Error {
  override name = 'ConsentRequiredError';
}

function loadScript(config: NonNullable<RecaptchaConfig>): Promise<Grecaptcha> {
  // The one place Google's script is added: never without the visitor's consent.
  if (!allows('google-recaptcha')) return Promise.reject(new ConsentRequiredError('reCAPTCHA needs consent'));
  scriptPromise ??= new Promise<Grecaptcha>((resolve, reject) => {
    const src = `${config.scriptUrl}${config.scriptUrl.includes('?') ? '&' : '?'}render=${encodeURIComponent(config.siteKey)}&hl=id`;
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () =>
      window.grecaptcha
        ? window.grecaptcha.ready(() => resolve(window.grecaptcha!))
        : reject(new Error('reCAPTCHA did not start'));
    script.onerror = () => reject(new Error('reCAPTCHA could not be loaded'));
    document.head.append(script);
  }).catch((err) => {
    scriptPromise = null;
    throw err;
  });
  return scriptPromise;
}

/** Start loading early (first focus in the form) so the token is quick at submit time. Errors wait for submit. */
export function prepareBotCheck(): void {
  loadConfig()
    .then((config) => (config ? loadScript(config) : null))
    .catch(() => {});
}

/**
 * A fresh reCAPTCHA token for action 'submit', or undefined when the server does not use reCAPTCHA.
 * Throws when it cannot get one (ConsentRequiredError: the visitor has not accepted reCAPTCHA).
 */
export async function getBotToken(): Promise<string | undefined> {
  const config = await loadConfig();
  if (!config) return undefined;
  const grecaptcha = await loadScript(config);
  return grecaptcha.execute(config.siteKey, { action: 'submit' });
}
