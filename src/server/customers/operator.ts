/**
 * Roles of accounts: `customer` (everyone who registers) and `shop_manager` (store operations). Only the
 * command line makes shop managers (`npm run shop -- create-admin`), so no web request can grant itself
 * the role.
 */
import { asc, eq } from 'drizzle-orm';
import type { Database } from '../db/connection.ts';
import type { CustomerRow } from './service.ts';
import { customers } from './tables.ts';

export type Role = 'customer' | 'shop_manager';
export const SHOP_MANAGER: Role = 'shop_manager';

export function isShopManager(user: Pick<CustomerRow, 'role'> | null | undefined): boolean {
  return user?.role === SHOP_MANAGER;
}

export class CustomerRoles {
  constructor(private readonly db: Database) {}

  async setRole(id: number, role: Role): Promise<CustomerRow | null> {
    const [row] = await this.db
      .update(customers)
      .set({ role, updatedAt: new Date() })
      .where(eq(customers.id, id))
      .returning();
    return row ?? null;
  }

  async shopManagers(): Promise<CustomerRow[]> {
    return this.db.select().from(customers).where(eq(customers.role, SHOP_MANAGER)).orderBy(asc(customers.id));
  }
}
