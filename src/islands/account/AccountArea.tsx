/**
 * The logged-in account: a greeting, the logout button and the tabs (details, password, orders,
 * downloads, wishlist). The tab is in the URL (?tab=…): choosing one pushes a history entry, and
 * back/forward switch tabs. The tab list follows the ARIA tabs pattern (arrow keys, Home, End).
 */
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { Lookup, Strings } from '../../lib/i18n/lookup';
import { $viewer, viewerDisplayName } from '../../stores/viewer';
import DetailsTab from './DetailsTab';
import DownloadsTab from './DownloadsTab';
import OrdersTab from './OrdersTab';
import PasswordTab from './PasswordTab';
import { ACCOUNT_TABS, adjacentTab, parseTab, tabHref, type AccountTab } from './tabs';
import { BUTTON_SECONDARY } from './ui';
import WishlistTab from './WishlistTab';

interface Props {
  t: Lookup;
  strings: Strings;
  lang: string;
  localePrefix: string;
  onLogout: () => Promise<void>;
}

export default function AccountArea({ t, strings, lang, localePrefix, onLogout }: Props) {
  const viewer = useStore($viewer);
  const [tab, setTab] = useState<AccountTab>(() => parseTab(window.location.search));
  const [leaving, setLeaving] = useState(false);
  const tabRefs = useRef<Partial<Record<AccountTab, HTMLAnchorElement | null>>>({});

  useEffect(() => {
    const onPop = () => setTab(parseTab(window.location.search));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  const choose = (next: AccountTab, focus = false) => {
    if (next !== tab) {
      window.history.pushState({ tab: next }, '', tabHref(window.location.pathname, window.location.search, next));
      setTab(next);
    }
    if (focus) tabRefs.current[next]?.focus();
  };

  const onClick = (event: MouseEvent<HTMLAnchorElement>, next: AccountTab) => {
    // A new tab or window keeps the link's own behaviour.
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
    event.preventDefault();
    choose(next);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLAnchorElement>) => {
    const moves: Record<string, AccountTab> = {
      ArrowRight: adjacentTab(tab, 1),
      ArrowDown: adjacentTab(tab, 1),
      ArrowLeft: adjacentTab(tab, -1),
      ArrowUp: adjacentTab(tab, -1),
      Home: ACCOUNT_TABS[0],
      End: ACCOUNT_TABS[ACCOUNT_TABS.length - 1]!,
    };
    const next = moves[event.key];
    if (!next) return;
    event.preventDefault();
    choose(next, true);
  };

  const logout = async () => {
    setLeaving(true);
    try {
      await onLogout();
    } finally {
      setLeaving(false);
    }
  };

  const name = viewer ? viewerDisplayName(viewer) : '';
  return (
    <div data-account-area data-tab={tab}>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <p className="text-base text-gray-700" data-account-greeting>
          {t('account.hello', { name })}
        </p>
        <button type="button" className={BUTTON_SECONDARY} onClick={logout} disabled={leaving} data-logout>
          {leaving ? t('account.loggingOut') : t('account.logout')}
        </button>
      </div>
      <div className="grid gap-6 lg:grid-cols-[14rem_1fr]">
        <div
          role="tablist"
          aria-label={t('account.tabs')}
          aria-orientation="vertical"
          className="-mx-4 flex gap-1 overflow-x-auto px-4 pb-1 lg:mx-0 lg:flex-col lg:overflow-visible lg:px-0"
        >
          {ACCOUNT_TABS.map((id) => (
            <a
              key={id}
              id={`account-tab-${id}`}
              ref={(node) => {
                tabRefs.current[id] = node;
              }}
              role="tab"
              href={tabHref(window.location.pathname, window.location.search, id)}
              aria-selected={tab === id}
              /* Only the chosen tab's panel exists (the others load when chosen). */
              aria-controls={tab === id ? `account-panel-${id}` : undefined}
              tabIndex={tab === id ? 0 : -1}
              onClick={(event) => onClick(event, id)}
              onKeyDown={onKeyDown}
              className="shrink-0 whitespace-nowrap rounded-full px-4 py-2 text-sm font-medium text-gray-700 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-main aria-selected:bg-main-tint aria-selected:text-main lg:rounded-lg"
            >
              {t(`account.tab.${id}`)}
            </a>
          ))}
        </div>
        <div
          id={`account-panel-${tab}`}
          role="tabpanel"
          aria-labelledby={`account-tab-${tab}`}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: WAI-ARIA's tabs pattern makes the panel a tab stop, so keyboard users reach a panel that starts with text
          tabIndex={0}
          className="min-w-0 focus-visible:outline-2 focus-visible:outline-main"
        >
          {tab === 'details' && <DetailsTab t={t} lang={lang} />}
          {tab === 'password' && <PasswordTab t={t} />}
          {tab === 'orders' && <OrdersTab t={t} lang={lang} localePrefix={localePrefix} />}
          {tab === 'downloads' && <DownloadsTab t={t} lang={lang} localePrefix={localePrefix} />}
          {tab === 'wishlist' && <WishlistTab t={t} strings={strings} localePrefix={localePrefix} />}
        </div>
      </div>
    </div>
  );
}
