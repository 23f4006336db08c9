-- The language an order was placed in: its mails, its invoice and its pages for the operator speak it.
-- Orders placed before this migration were placed on an English-speaking engine.
ALTER TABLE "orders" ADD COLUMN "locale" text DEFAULT 'en_US' NOT NULL;
