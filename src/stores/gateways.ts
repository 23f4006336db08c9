/**
 * The payment gateways the engine offers for the session (id, title, description), refreshed by
 * session start. The checkout lists them as the payment choices.
 */
import { atom } from 'nanostores';
import type { PaymentGatewayFragment as PaymentGateway } from '../graphql/generated/operations';

export const $paymentGateways = atom<PaymentGateway[]>([]);

export function setPaymentGateways(gateways: readonly (PaymentGateway | null)[] | null | undefined): void {
  $paymentGateways.set((gateways ?? []).filter((g): g is PaymentGateway => g !== null && typeof g.id === 'string'));
}

export function resetPaymentGateways(): void {
  $paymentGateways.set([]);
}
