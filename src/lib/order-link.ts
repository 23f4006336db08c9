/**
 * The order number of an order link (/order-summary/{number}, /checkout/order-received/{number}?key=…)
 * as the engine writes it: the order's database id (orderNumber in src/server/orders/resolvers.ts). The
 * order pages answer 404 for a number that cannot be an order's. Pure.
 */

/** A positive whole number without leading zeros, as order numbers are written (at most 10 digits). */
export function isOrderNumber(value: string): boolean {
  return /^[1-9]\d{0,9}$/.test(value);
}
