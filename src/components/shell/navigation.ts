/** Whether a click on a link will load another page in this tab (not a new tab, download or in-page anchor). */
export function isPageNavigation(link: HTMLAnchorElement, e: MouseEvent): boolean {
  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return false;
  if (link.target && link.target !== '_self') return false;
  if (link.hasAttribute('download')) return false;
  const href = link.getAttribute('href');
  if (!href || href.startsWith('#')) return false;
  const url = new URL(link.href, location.href);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.origin !== location.origin) return false;
  return !(url.pathname === location.pathname && url.search === location.search && url.hash);
}
