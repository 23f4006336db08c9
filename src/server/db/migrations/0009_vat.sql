-- Prices that include VAT, and business customers' VAT IDs. Orders record whether their prices included
-- tax (orders placed before this migration did not: the shop added tax on top then), the customer's VAT
-- ID, whether VIES could check it (vat_id_unverified: the operator checks it before shipping), whether the
-- VAT was reverse charged, what the check found and the note an invoice must carry. Each line records its
-- tax rate, the unit price charged and its gross total, so an invoice can list net, rate, VAT and gross
-- per line without working anything out again.
ALTER TABLE "orders" ADD COLUMN "prices_include_tax" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "vat_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "vat_id_unverified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "vat_reverse_charge" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "vat_check" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "vat_note" text;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "tax_rate_basis_points" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "unit_price_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "total_gross_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Lines of earlier orders: their order's one tax rate, the net unit price (those prices were entered
-- without tax; a line's subtotal is quantity × unit price) and net plus tax.
UPDATE "order_items" SET
  "tax_rate_basis_points" = coalesce((SELECT ("o"."tax_lines"->0->>'rateBasisPoints')::integer FROM "orders" "o" WHERE "o"."id" = "order_items"."order_id"), 0),
  "unit_price_cents" = CASE WHEN "quantity" > 0 THEN "subtotal_cents" / "quantity" ELSE 0 END,
  "total_gross_cents" = "total_cents" + "total_tax_cents";
