/**
 * Bot-check tokens for the contact form (reCAPTCHA v3). Nothing loads until the form is first used: then
 * the form asks the server which site key and script to use (GET /api/contact-form/config — so one build
 * works with any key, and tests can point the script at a local stand-in) and loads the script with
 * `?render=<site key>&hl=id`. When the server says verification is off (development without a secret)
 * no script loads and no token is sent.
 */

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

let configPromise: Promise<RecaptchaConfig> | null = null;
let scriptPromise: Promise<Grecaptcha> | null = null;

function loadConfig(): Promise<RecaptchaConfig> {
  configPromise ??= fetch('/api/contact-form/config', { headers: { accept: 'application/json' } })
    .then((r) => {
      if (!r.ok) throw new Error(`contact form config: HTTP ${r.status}`);
      return r.json() as Promise<{ recaptcha: RecaptchaConfig }>;
    })
    .then((body) => body.recaptcha)
    .catch((err) => {
      configPromise = null; // try again on the next submit
      throw err;
    });
  return configPromise;
}

function loadScript(config: NonNullable<RecaptchaConfig>): Promise<Grecaptcha> {
  scriptPromise ??= new Promise<Grecaptcha>((resolve, reject) => {
    const src = `${config.scriptUrl}${config.scriptUrl.includes('?') ? '&' : '?'}render=${encodeURIComponent(config.siteKey)}&hl=id`;
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => (window.grecaptcha ? window.grecaptcha.ready(() => resolve(window.grecaptcha!)) : reject(new Error('reCAPTCHA did not start')));
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

/** A fresh token for action 'submit', or undefined when the server does not verify tokens. Throws when it cannot get one. */
export async function getBotToken(): Promise<string | undefined> {
  const config = await loadConfig();
  if (!config) return undefined;
  const grecaptcha = await loadScript(config);
  return grecaptcha.execute(config.siteKey, { action: 'submit' });
}
