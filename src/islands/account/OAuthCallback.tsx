/**
 * /oauth/login/{provider}: where an external provider sends the browser back with ?code=…&state=….
 * Completes the login in the browser (the engine checks that the state was issued to this browser's
 * session, so the call must carry its session token), then goes to the account. A provider error
 * (?error=access_denied …), a missing code or a refused login shows the reason and a way back. When the
 * provider's address belongs to an account that must be proven first, the shopper is asked for that
 * account's password or offered a link by e-mail (LinkAccountPrompt).
 */
import { useEffect, useRef, useState } from 'react';
import type { PendingAccountLink } from '../../graphql/shapes';
import { createLookup, type Strings } from '../../lib/i18n/lookup';
import { loginWithProvider, NoViewerError } from '../../stores/account';
import { $loginClients } from '../../stores/customer';
import { sessionReady } from '../../stores/session';
import LinkAccountPrompt from './LinkAccountPrompt';
import { accountErrorText } from './messages';
import { providerForSlug, rememberedProvider } from './providers';
import { BUTTON, FormNotice } from './ui';

export interface OAuthCallbackProps {
  strings: Strings;
  localePrefix: string;
  /** The {provider} path segment. */
  slug: string;
}

type State = { kind: 'working' } | { kind: 'failed'; message: string } | { kind: 'link'; link: PendingAccountLink };

export default function OAuthCallback({ strings, localePrefix, slug }: OAuthCallbackProps) {
  const t = createLookup(strings);
  const [state, setState] = useState<State>({ kind: 'working' });
  const started = useRef(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once on mount: the provider's code can be spent only once
  useEffect(() => {
    // React's development double effects must not spend the single-use state twice.
    if (started.current) return;
    started.current = true;
    const params = new URLSearchParams(window.location.search);
    const code = params.get('code');
    const returnedState = params.get('state');
    // The code is single use: keep it out of the history and out of any later Referer.
    window.history.replaceState(null, '', window.location.pathname);
    if (params.get('error') || !code || code.length > 2048) {
      setState({ kind: 'failed', message: t('account.oauth.cancelled') });
      return;
    }
    (async () => {
      await sessionReady();
      const provider = providerForSlug(slug, rememberedProvider(), $loginClients.get());
      if (!provider) {
        setState({ kind: 'failed', message: t('account.oauth.unknownProvider') });
        return;
      }
      try {
        const link = await loginWithProvider(provider, code, returnedState);
        if (link) {
          setState({ kind: 'link', link });
          return;
        }
        window.location.replace(`${localePrefix}/my-account`);
      } catch (error) {
        setState({
          kind: 'failed',
          message:
            error instanceof NoViewerError
              ? t('account.error.noViewer')
              : accountErrorText(error, t, 'account.error.login'),
        });
      }
    })();
  }, []);

  if (state.kind === 'link') {
    return (
      <LinkAccountPrompt
        t={t}
        localePrefix={localePrefix}
        link={state.link}
        onLinked={() => window.location.replace(`${localePrefix}/my-account`)}
      />
    );
  }
  if (state.kind === 'working') {
    return (
      <p role="status" className="text-sm text-gray-700" data-oauth-working>
        {t('account.loggingIn')}
      </p>
    );
  }
  return (
    <div className="space-y-4" data-oauth-failed>
      <FormNotice notice={{ tone: 'error', text: state.message }} />
      <a href={`${localePrefix}/my-account`} className={BUTTON}>
        {t('account.oauth.back')}
      </a>
    </div>
  );
}
