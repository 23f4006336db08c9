/** Components every rendered content body uses: <Content components={mdxComponents} />. */
import LocalizedLink from './LocalizedLink.astro';
import Callout from './Callout.astro';
import ScrollTable from './ScrollTable.astro';

export const mdxComponents = { a: LocalizedLink, blockquote: Callout, table: ScrollTable };
