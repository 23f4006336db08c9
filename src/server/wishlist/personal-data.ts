/** What erasing a customer (src/server/privacy/erase.ts) deletes of the wishlist. */
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/connection.ts';
import { wishlistItems } from './tables.ts';

export async function eraseWishlistOf(tx: DbOrTx, userId: number): Promise<void> {
  await tx.delete(wishlistItems).where(eq(wishlistItems.userId, userId));
}
