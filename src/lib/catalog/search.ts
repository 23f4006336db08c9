import type { CatalogProduct } from './types.ts';

/** Descriptions are HTML: search the text a shopper reads, not tag or attribute names. */
function visibleText(html: string | null | undefined): string {
  if (!html) return '';
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'");
}

export function normaliseSearchTerm(term: string | null | undefined): string {
  return typeof term === 'string' ? term.trim().toLocaleLowerCase() : '';
}

export function matchesSearch(product: CatalogProduct, term: string): boolean {
  const needle = normaliseSearchTerm(term);
  if (!needle) return true;
  return [product.name ?? '', visibleText(product.description), visibleText(product.shortDescription)].some((text) =>
    text.toLocaleLowerCase().includes(needle),
  );
}

/** Case-insensitive "contains" on name, description or short description; a blank term keeps all. */
export function searchProducts<T extends CatalogProduct>(products: readonly T[], term: string | null | undefined): T[] {
  const needle = normaliseSearchTerm(term);
  if (!needle) return products.slice();
  return products.filter((product) => matchesSearch(product, needle));
}
