/**
 * What kind of payment a gateway id stands for: 'card' (Stripe's Payment Element), 'crypto' (KDA on
 * Kadena: address, amount and countdown after the order is placed), 'cod' (cash on delivery) or
 * 'other' (title and description only). Ids as the engine lists them in paymentGateways.
 */
export type GatewayKind = 'card' | 'crypto' | 'cod' | 'other';

export function gatewayKind(id: string | null | undefined): GatewayKind {
  const value = (id ?? '').toLowerCase();
  if (value === 'stripe' || value.startsWith('stripe_') || value.startsWith('stripe-')) return 'card';
  if (value === 'kda' || value.includes('kadena') || value.includes('crypto')) return 'crypto';
  if (value === 'cod') return 'cod';
  return 'other';
}

/**
 * The payment method the checkout starts on: card when the shop offers it (most shoppers pay by card),
 * otherwise the first gateway in the order the shop lists them; '' when it offers none.
 */
export function defaultGateway(ids: readonly string[]): string {
  return ids.find((id) => gatewayKind(id) === 'card') ?? ids[0] ?? '';
}
