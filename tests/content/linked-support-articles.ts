/**
 * The support articles other content links to by id (guides' relatedArticles and links, the site's
 * fixed entry points). The support test checks each exists; the guides test allows only these.
 */
export const FIXED_SUPPORT_IDS = [
  'getting-started/what-is-meshfront',
  'getting-started/create-a-kadena-wallet',
  'gateways/choosing-an-antenna',
  'gateways/antenna-placement',
  'gateways/flashing-meshfront-os',
  'gateways/ethernet-vs-wifi',
  'wallet-and-rewards/how-rewards-work',
  'wallet-and-rewards/claiming-a-gateway',
  'troubleshooting/gateway-offline',
  'troubleshooting/led-codes',
  'troubleshooting/cannot-find-device-on-network',
  'orders-and-shipping/shipping-times',
] as const;
