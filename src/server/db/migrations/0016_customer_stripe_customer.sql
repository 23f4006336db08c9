-- The customer's account at Stripe (cus_…), made the first time a logged-in customer pays by card or
-- saves one, and reused for every later payment: the cards saved with Stripe belong to it. Guests never
-- get one. Unique: two shop accounts must never share one Stripe customer and so each other's cards.
ALTER TABLE "customers" ADD COLUMN "stripe_customer_id" text;
--> statement-breakpoint
CREATE UNIQUE INDEX "customers_stripe_customer_id" ON "customers" USING btree ("stripe_customer_id");
