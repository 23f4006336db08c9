/**
 * Where the header's product search sends the shopper: on a category's listing (any of its pages) the
 * search stays in that category, /product-category/{slug}?search=…, whose listing filters by the
 * search within the category; everywhere else it searches the whole catalog, /products?search=….
 *
 *   searchScope('/product-category/antennas/page/2')  // '/product-category/antennas'
 *   searchScope('/about')                              // '/products'
 */
const CATEGORY_LISTING = /^\/product-category\/([^/?#]+)(?:\/page\/\d+)?\/?$/;

/** `rest` is the page's path without the locale prefix (ShellContext.rest). */
export function searchScope(rest: string): string {
  const category = CATEGORY_LISTING.exec(rest)?.[1];
  return category ? `/product-category/${category}` : '/products';
}
