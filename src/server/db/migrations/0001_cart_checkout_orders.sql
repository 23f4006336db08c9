CREATE TABLE "coupons" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"discount_type" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"expires_at" timestamp with time zone,
	"usage_limit" integer,
	"usage_limit_per_user" integer,
	"usage_count" integer DEFAULT 0 NOT NULL,
	"minimum_cents" integer,
	"maximum_cents" integer,
	"individual_use" boolean DEFAULT false NOT NULL,
	"free_shipping" boolean DEFAULT false NOT NULL,
	"exclude_sale_items" boolean DEFAULT false NOT NULL,
	"product_slugs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"excluded_product_slugs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"category_slugs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"excluded_category_slugs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"email_restrictions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coupons_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "coupon_usages" (
	"id" serial PRIMARY KEY NOT NULL,
	"coupon_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"customer_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "coupon_usages_coupon_order_customer" ON "coupon_usages" USING btree ("coupon_id","order_id","customer_key");
--> statement-breakpoint
CREATE INDEX "coupon_usages_coupon_customer" ON "coupon_usages" USING btree ("coupon_id","customer_key");
--> statement-breakpoint
ALTER TABLE "coupon_usages" ADD CONSTRAINT "coupon_usages_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE SEQUENCE "public"."orders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1001 CACHE 1;
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" integer PRIMARY KEY DEFAULT nextval('orders_id_seq') NOT NULL,
	"order_key" text NOT NULL,
	"status" text NOT NULL,
	"customer_id" text NOT NULL,
	"currency" text NOT NULL,
	"payment_method" text NOT NULL,
	"payment_method_title" text NOT NULL,
	"transaction_id" text,
	"created_via" text DEFAULT 'checkout' NOT NULL,
	"customer_note" text DEFAULT '' NOT NULL,
	"billing" jsonb NOT NULL,
	"shipping" jsonb NOT NULL,
	"subtotal_cents" integer NOT NULL,
	"discount_cents" integer NOT NULL,
	"discount_tax_cents" integer NOT NULL,
	"shipping_cents" integer NOT NULL,
	"shipping_tax_cents" integer NOT NULL,
	"cart_tax_cents" integer NOT NULL,
	"total_tax_cents" integer NOT NULL,
	"total_cents" integer NOT NULL,
	"shipping_lines" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"coupon_lines" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tax_lines" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"meta_data" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"stock_reduced" boolean DEFAULT false NOT NULL,
	"downloads_granted" boolean DEFAULT false NOT NULL,
	"hold_expires_at" timestamp with time zone,
	"payment_currency" text,
	"crypto_amount" text,
	"crypto_rate" text,
	"payment_address" text,
	"received_unconfirmed" text,
	"received_confirmed" text,
	"payment_expires_at" timestamp with time zone,
	"date_created" timestamp with time zone DEFAULT now() NOT NULL,
	"date_modified" timestamp with time zone DEFAULT now() NOT NULL,
	"date_paid" timestamp with time zone,
	"date_completed" timestamp with time zone,
	CONSTRAINT "orders_order_key_unique" UNIQUE("order_key")
);
--> statement-breakpoint
CREATE INDEX "orders_customer" ON "orders" USING btree ("customer_id");
--> statement-breakpoint
CREATE INDEX "orders_status_hold" ON "orders" USING btree ("status","hold_expires_at");
--> statement-breakpoint
CREATE UNIQUE INDEX "orders_payment_transaction" ON "orders" USING btree ("payment_method","transaction_id") WHERE "orders"."transaction_id" is not null;
--> statement-breakpoint
CREATE TABLE "order_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"variation_id" integer,
	"name" text NOT NULL,
	"sku" text DEFAULT '' NOT NULL,
	"quantity" integer NOT NULL,
	"subtotal_cents" integer NOT NULL,
	"subtotal_tax_cents" integer NOT NULL,
	"total_cents" integer NOT NULL,
	"total_tax_cents" integer NOT NULL,
	"virtual" boolean DEFAULT false NOT NULL,
	"downloadable" boolean DEFAULT false NOT NULL,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"backordered" integer DEFAULT 0 NOT NULL,
	"stock_reduced" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "order_items_order" ON "order_items" USING btree ("order_id");
--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE TABLE "download_permissions" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"download_id" text NOT NULL,
	"downloads_remaining" integer,
	"access_expires" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "download_permissions_order_download" ON "download_permissions" USING btree ("order_id","download_id");
--> statement-breakpoint
ALTER TABLE "download_permissions" ADD CONSTRAINT "download_permissions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE TABLE "order_notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"note" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "order_notes_order" ON "order_notes" USING btree ("order_id");
--> statement-breakpoint
ALTER TABLE "order_notes" ADD CONSTRAINT "order_notes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE TABLE "stripe_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
