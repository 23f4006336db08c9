/** The store-operations commands the dispatcher (src/server/cli.ts) adds to its COMMANDS. */
import type { CliCommand } from './common.ts';
import { couponsCommand } from './coupons.ts';
import { createAdminCommand } from './create-admin.ts';
import { ordersCommand } from './orders.ts';
import { productsCommand } from './products.ts';

export { CliUsageError } from './common.ts';

export const adminCommands: Record<string, CliCommand> = {
  'create-admin': createAdminCommand,
  orders: ordersCommand,
  products: productsCommand,
  coupons: couponsCommand,
};
