/**
 * The payment gateways the shop offers (`paymentGateways`): cash on delivery always (unless switched
 * off), card through Stripe when STRIPE_SECRET_KEY is set, KDA when the Kadena settings are usable.
 * A gateway is listed only when the engine can really take payments through it.
 */
export type GatewayId = 'cod' | 'stripe' | 'kda';
export type Gateway = { id: GatewayId; title: string; description: string; icon: string | null };

export const GATEWAY_INFO: Record<GatewayId, Omit<Gateway, 'id'>> = {
  cod: { title: 'Cash on delivery', description: 'Pay with cash upon delivery.', icon: null },
  stripe: { title: 'Credit / debit card', description: 'Pay securely with your card (Stripe).', icon: null },
  kda: {
    title: 'KDA (Kadena)',
    description: 'Pay with KDA to the order’s own Kadena account within the payment window.',
    icon: null,
  },
};

export function gatewayList(enabled: Record<GatewayId, boolean>): Gateway[] {
  return (['stripe', 'kda', 'cod'] as GatewayId[])
    .filter((id) => enabled[id])
    .map((id) => ({ id, ...GATEWAY_INFO[id] }));
}
