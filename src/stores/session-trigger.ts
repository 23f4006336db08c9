/**
 * The tiny plain script (no React, no GraphQL client until needed) that starts the session on every
 * page: at once on cart, checkout, account and order pages, or when the delay setting is on, at the
 * visitor's first mouse, key, touch, scroll, wheel, click or resize. The session module (with the
 * GraphQL client) is imported only at that moment, so content pages load no commerce code up front.
 *
 * The cart panel (src/components/shell/CartPanel.astro) runs it with the delay setting from
 * storeSettings.initStoreOnUserActionToReduceServerLoad.
 */
import { LOCALES, DEFAULT_LOCALE } from '../lib/i18n/locales';
import { INTERACTION_EVENTS, sessionStartMode, stripLocalePrefix } from './session-rules';

const LOCALE_PATHS = LOCALES.filter((l) => l !== DEFAULT_LOCALE).map((l) => l.path);

function start(): void {
  import('./session')
    .then(({ startSession }) => startSession())
    // Failures are handled (and shown) inside the session module.
    .catch(() => {});
}

export function installSessionTrigger(delayUntilInteraction: boolean, win: Window = window): void {
  const path = stripLocalePrefix(win.location.pathname, LOCALE_PATHS);
  if (sessionStartMode(path, delayUntilInteraction) === 'immediate') {
    start();
    return;
  }
  const options: AddEventListenerOptions = { passive: true, capture: true };
  const onFirst = () => {
    for (const name of INTERACTION_EVENTS) win.removeEventListener(name, onFirst, options);
    start();
  };
  for (const name of INTERACTION_EVENTS) win.addEventListener(name, onFirst, options);
}
