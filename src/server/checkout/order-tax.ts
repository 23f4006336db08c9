/**
 * What an order records of its tax, besides the amounts the cart computed: whether its prices included
 * tax, the business customer's VAT ID and its check, the reverse charge and the note its invoice must
 * carry; per line the rate, the unit price charged and the gross total. An invoice is then written from
 * the order alone: per line net (total), rate, VAT (total tax) and gross.
 */
import type { CartLine, CartView } from '../cart/totals.ts';
import type { NewOrder, NewOrderItem } from '../orders/service.ts';
import type { CommerceSettings } from '../shop/settings.ts';
import { REVERSE_CHARGE_NOTE } from '../tax/location.ts';
import type { VatCheck } from '../tax/vat-check.ts';

export function orderTaxFields(
  view: CartView,
  settings: CommerceSettings,
  vat: VatCheck | null,
): Pick<NewOrder, 'pricesIncludeTax' | 'vatId' | 'vatIdUnverified' | 'vatReverseCharge' | 'vatCheck' | 'vatNote'> {
  return {
    pricesIncludeTax: settings.pricesIncludeTax,
    vatId: vat?.vatId ?? null,
    vatIdUnverified: vat?.status === 'unverified',
    vatReverseCharge: view.vatExempt,
    vatCheck: vat,
    vatNote: view.vatExempt ? REVERSE_CHARGE_NOTE : null,
  };
}

export function orderItemTaxFields(
  line: CartLine,
): Pick<NewOrderItem, 'taxRateBasisPoints' | 'unitPriceCents' | 'totalGrossCents'> {
  return {
    taxRateBasisPoints: line.taxRate?.basisPoints ?? 0,
    unitPriceCents: line.unitCents,
    totalGrossCents: line.totalCents + line.taxCents,
  };
}

/** The order notes the operator reads about the VAT ID (never in a log: a sole trader's number is personal data). */
export function vatOrderNotes(view: CartView, vat: VatCheck | null): string[] {
  if (!vat) return [];
  const notes: string[] = [];
  if (vat.status === 'valid')
    notes.push(
      `VAT ID ${vat.vatId} confirmed by VIES${vat.requestIdentifier ? ` (consultation number ${vat.requestIdentifier})` : ''}${vat.name ? `: ${vat.name}` : ''}.`,
    );
  else
    notes.push(
      `VAT ID ${vat.vatId} could not be checked with VIES (${vat.reason ?? 'no answer'}): check it before shipping.`,
    );
  if (view.vatExempt) notes.push(REVERSE_CHARGE_NOTE);
  return notes;
}
