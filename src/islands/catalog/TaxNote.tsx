/**
 * The note the law asks for beside a price shown to consumers: "incl. VAT, plus shipping", the word
 * "shipping" linking to the shipping policy (costs per destination). Catalog prices are the shop's base
 * country's (the shopper's destination prices them in the cart); with TAX_DISPLAY_SHOP=excl the note says
 * "excl. VAT". Renders without JavaScript too.
 */
import type { Lookup } from '../../lib/i18n/lookup.ts';

export interface TaxNoteProps {
  t: Lookup;
  /** '' for English, '/de' … */
  localePrefix: string;
  /** Whether the prices beside it include VAT (the shop's PUBLIC_TAX_DISPLAY_SHOP). */
  includesTax?: boolean;
  className?: string;
}

export default function TaxNote({ t, localePrefix, includesTax = true, className = '' }: TaxNoteProps) {
  // The sentence's word order differs by language: the link goes where the locale puts {shipping}.
  const [before, after = ''] = t(includesTax ? 'product.taxNote.incl' : 'product.taxNote.excl').split('{shipping}');
  return (
    <span className={`text-xs text-gray-600 dark:text-gray-300 ${className}`} data-tax-note>
      {before}
      <a
        href={`${localePrefix}/policies/shipping`}
        className="relative z-10 underline underline-offset-2 hover:text-main focus-visible:outline-2 focus-visible:outline-main"
      >
        {t('product.taxNote.shipping')}
      </a>
      {after}
    </span>
  );
}
