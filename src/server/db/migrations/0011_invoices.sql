-- Invoices and credit notes (src/server/invoices/). Each document is numbered from a gapless series per
-- calendar year: invoice_counters holds the last number given out per series and year, taken with an
-- UPDATE … RETURNING in the transaction that issues the document, so a rolled-back transaction gives its
-- number back (a sequence would not). A document keeps a frozen copy of what it says (seller, buyer,
-- lines, totals) in "document": changing the shop's settings later never rewrites an issued invoice.
CREATE TABLE "invoice_counters" (
	"series" text NOT NULL,
	"year" integer NOT NULL,
	"last_number" integer NOT NULL,
	CONSTRAINT "invoice_counters_pk" PRIMARY KEY ("series", "year"),
	CONSTRAINT "invoice_counters_series_known" CHECK ("series" IN ('invoice', 'credit-note'))
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"number" text NOT NULL,
	"year" integer NOT NULL,
	"sequence" integer NOT NULL,
	"order_id" integer NOT NULL REFERENCES "orders"("id"),
	"invoice_id" integer REFERENCES "invoices"("id"),
	"refund_id" integer REFERENCES "order_refunds"("id"),
	"issue_date" text NOT NULL,
	"supply_date" text NOT NULL,
	"locale" text NOT NULL,
	"gross_cents" integer NOT NULL,
	"document" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_kind_known" CHECK ("kind" IN ('invoice', 'credit-note')),
	CONSTRAINT "invoices_credit_note_refers" CHECK (("kind" = 'invoice') = ("invoice_id" IS NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number" ON "invoices" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_series_sequence" ON "invoices" USING btree ("kind", "year", "sequence");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_one_per_order" ON "invoices" USING btree ("order_id") WHERE "invoices"."kind" = 'invoice';--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_one_per_refund" ON "invoices" USING btree ("refund_id") WHERE "invoices"."refund_id" is not null;--> statement-breakpoint
CREATE INDEX "invoices_order" ON "invoices" USING btree ("order_id");
