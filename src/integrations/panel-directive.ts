/**
 * The browser half of `client:panel` (see cart-directive.ts). Plain DOM only: this code is inlined into
 * every page that has such an island.
 */
import type { ClientDirective } from 'astro';

const panelDirective: ClientDirective = (load, options, el) => {
  const name = typeof options.value === 'string' && options.value ? options.value : null;
  const panel = (
    name ? document.querySelector(`[data-panel="${name}"]`) : el.closest('[data-panel]')
  ) as HTMLElement | null;
  let done = false;
  let observer: MutationObserver | null = null;
  const hydrate = async () => {
    if (done) return;
    done = true;
    observer?.disconnect();
    const hydrateIsland = await load();
    await hydrateIsland();
  };
  if (!panel) {
    // No panel to wait for: behave like client:idle rather than never hydrating.
    ('requestIdleCallback' in window ? requestIdleCallback : setTimeout)(() => void hydrate());
    return;
  }
  if (panel.hasAttribute('data-open')) {
    void hydrate();
    return;
  }
  observer = new MutationObserver(() => {
    if (panel.hasAttribute('data-open')) void hydrate();
  });
  observer.observe(panel, { attributes: true, attributeFilter: ['data-open'] });
};

export default panelDirective;
