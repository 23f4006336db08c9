/** The whole database schema: each domain owns its tables file; this only re-exports them (drizzle-kit reads it). */
export * from './meta-tables.ts';
export * from '../catalog/tables.ts';
export * from '../session/tables.ts';
export * from '../coupons/tables.ts';
export * from '../orders/tables.ts';
export * from '../orders/refund-tables.ts';
export * from '../rate-limit/tables.ts';
export * from '../contact/tables.ts';
export * from '../newsletter/tables.ts';
export * from '../customers/tables.ts';
export * from '../auth/tables.ts';
export * from '../wishlist/tables.ts';
export * from '../mail/tables.ts';
export * from '../invoices/tables.ts';
export * from '../audit/tables.ts';
