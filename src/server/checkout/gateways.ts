/**
 * The payment gateways the shop offers (`paymentGateways`): cash on delivery always (unless switched
 * off), card through Stripe when STRIPE_SECRET_KEY is set, KDA when the Kadena settings are usable.
 * A gateway is listed only when the engine can really take payments through it. Titles and descriptions
 * are the engine's own texts (locales/*.json `engine.gateway.*`), in the shopper's language.
 */
import type { LocaleCode } from '../../lib/i18n/locales.ts';
import { renderText, text } from '../i18n/text.ts';

export type GatewayId = 'cod' | 'stripe' | 'kda';
export type Gateway = { id: GatewayId; title: string; description: string; icon: string | null };

const GATEWAY_IDS: readonly GatewayId[] = ['stripe', 'kda', 'cod'];

function gateway(id: GatewayId, locale: LocaleCode): Gateway {
  return {
    id,
    title: renderText(text(`gateway.${id}.title`), locale),
    description: renderText(text(`gateway.${id}.description`), locale),
    icon: null,
  };
}

/** A gateway's title in `locale`, also for one not offered any more (an order placed with it); null for an unknown id. */
export function gatewayTitle(id: string, locale: LocaleCode): string | null {
  return (GATEWAY_IDS as readonly string[]).includes(id) ? gateway(id as GatewayId, locale).title : null;
}

export function gatewayList(enabled: Record<GatewayId, boolean>, locale: LocaleCode): Gateway[] {
  return GATEWAY_IDS.filter((id) => enabled[id]).map((id) => gateway(id, locale));
}
