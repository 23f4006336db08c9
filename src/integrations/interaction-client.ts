/**
 * The browser half of `client:interaction` (see interaction-directive.ts). Plain DOM only: Astro inlines
 * this into every page that has such an island.
 */
import type { ClientDirective } from 'astro';

/** The same moments the session starts on (src/stores/session-rules.ts), plus focus for keyboard users. */
const INTERACTION_EVENTS = ['mousemove', 'pointerdown', 'keydown', 'touchstart', 'scroll', 'wheel', 'focusin'];

function urlHasAny(names: unknown): boolean {
  if (!Array.isArray(names) || names.length === 0) return false;
  const params = new URLSearchParams(location.search);
  return names.some((name) => typeof name === 'string' && params.has(name));
}

const interactionDirective: ClientDirective = (load, options, el) => {
  let state: 'waiting' | 'loading' | 'done' = 'waiting';
  const held: EventTarget[] = [];
  const listen = { capture: true, passive: true } as const;

  // Capture phase on the island: sees the click before anything inside it does.
  const holdClick = (event: Event) => {
    if (state === 'done') return;
    const target = event.target as Element | null;
    // Links work without JavaScript: let the browser follow them.
    if (target?.closest?.('a[href]')) {
      void start();
      return;
    }
    event.preventDefault();
    event.stopImmediatePropagation();
    if (target) held.push(target);
    void start();
  };

  const value = options.value as { query?: unknown; event?: unknown } | boolean | string | undefined;
  const settings = value && typeof value === 'object' ? value : {};
  const wakeEvent = typeof settings.event === 'string' && settings.event ? settings.event : null;

  const stopListening = () => {
    for (const name of INTERACTION_EVENTS) window.removeEventListener(name, onInteraction, listen);
    if (wakeEvent) window.removeEventListener(wakeEvent, onInteraction);
  };
  function onInteraction() {
    void start();
  }

  /** Clicks go straight to the island from now on. */
  const release = () => {
    state = 'done';
    el.removeEventListener('click', holdClick, true);
  };

  async function start() {
    if (state !== 'waiting') return;
    state = 'loading';
    stopListening();
    try {
      const hydrate = await load();
      await hydrate();
    } catch (error) {
      // The island stays static; held clicks are dropped rather than replayed into nothing.
      held.length = 0;
      release();
      throw error;
    }
    // Replay once the hydration has committed, not merely started: React hydrates in a transition, and
    // a click arriving before it has seen a checkbox makes it record the already-toggled state, so the
    // change is lost. The browser runs idle callbacks only when no task (such as React's next slice)
    // is waiting. Clicks keep being held until then, so they replay in order.
    const replay = () => {
      release();
      for (const target of held.splice(0)) {
        if ((target as Node).isConnected)
          target.dispatchEvent(
            new MouseEvent('click', { bubbles: true, cancelable: true, composed: true, view: window }),
          );
      }
    };
    if ('requestIdleCallback' in window) requestIdleCallback(replay, { timeout: 2000 });
    else setTimeout(replay, 50);
  }

  el.addEventListener('click', holdClick, true);
  if (urlHasAny(settings.query)) {
    void start();
    return;
  }
  for (const name of INTERACTION_EVENTS) window.addEventListener(name, onInteraction, listen);
  if (wakeEvent) window.addEventListener(wakeEvent, onInteraction);
};

export default interactionDirective;
