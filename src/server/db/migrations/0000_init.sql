CREATE SEQUENCE "public"."catalog_post_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 100 CACHE 1;--> statement-breakpoint
CREATE TABLE "meta" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "catalog_attributes" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "catalog_attributes_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "catalog_downloads" (
	"id" text PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"file" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "catalog_images" (
	"id" serial PRIMARY KEY NOT NULL,
	"file" text NOT NULL,
	"alt_text" text DEFAULT '' NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"width" integer,
	"height" integer,
	CONSTRAINT "catalog_images_file_unique" UNIQUE("file")
);
--> statement-breakpoint
CREATE TABLE "catalog_product_attributes" (
	"product_id" integer NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"attribute_id" integer,
	"options" jsonb NOT NULL,
	"visible" boolean DEFAULT true NOT NULL,
	"variation" boolean DEFAULT false NOT NULL,
	CONSTRAINT "catalog_product_attributes_product_id_position_pk" PRIMARY KEY("product_id","position")
);
--> statement-breakpoint
CREATE TABLE "catalog_product_images" (
	"product_id" integer NOT NULL,
	"image_id" integer NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "catalog_product_images_product_id_position_pk" PRIMARY KEY("product_id","position")
);
--> statement-breakpoint
CREATE TABLE "catalog_product_terms" (
	"product_id" integer NOT NULL,
	"term_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "catalog_product_terms_product_id_term_id_pk" PRIMARY KEY("product_id","term_id")
);
--> statement-breakpoint
CREATE TABLE "catalog_products" (
	"id" integer PRIMARY KEY DEFAULT nextval('catalog_post_id_seq') NOT NULL,
	"slug" text NOT NULL,
	"sku" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'publish' NOT NULL,
	"visibility" text DEFAULT 'visible' NOT NULL,
	"featured" boolean DEFAULT false NOT NULL,
	"date" timestamp NOT NULL,
	"modified" timestamp DEFAULT now() NOT NULL,
	"menu_order" integer DEFAULT 0 NOT NULL,
	"short_description" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"regular_price_cents" integer,
	"sale_price_cents" integer,
	"date_on_sale_from" timestamp,
	"date_on_sale_to" timestamp,
	"manage_stock" boolean DEFAULT false NOT NULL,
	"stock_quantity" integer,
	"low_stock_amount" integer,
	"backorders" text DEFAULT 'no' NOT NULL,
	"stock_status" text DEFAULT 'instock' NOT NULL,
	"virtual" boolean DEFAULT false NOT NULL,
	"downloadable" boolean DEFAULT false NOT NULL,
	"download_limit" integer,
	"download_expiry" integer,
	"weight" text,
	"length" text,
	"width" text,
	"height" text,
	"external_url" text,
	"button_text" text,
	"total_sales" integer DEFAULT 0 NOT NULL,
	"reviews_allowed" boolean DEFAULT true NOT NULL,
	"image_id" integer,
	"default_attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"meta_data" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"related" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "catalog_products_slug_unique" UNIQUE("slug"),
	CONSTRAINT "catalog_products_sku_unique" UNIQUE("sku")
);
--> statement-breakpoint
CREATE TABLE "catalog_reviews" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"author" text NOT NULL,
	"email" text NOT NULL,
	"rating" integer NOT NULL,
	"content" text NOT NULL,
	"date" timestamp NOT NULL,
	"verified" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'approved' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "catalog_terms" (
	"id" serial PRIMARY KEY NOT NULL,
	"taxonomy" text NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"parent_id" integer,
	"menu_order" integer DEFAULT 0 NOT NULL,
	"image_id" integer
);
--> statement-breakpoint
CREATE TABLE "catalog_variations" (
	"id" integer PRIMARY KEY DEFAULT nextval('catalog_post_id_seq') NOT NULL,
	"product_id" integer NOT NULL,
	"sku" text NOT NULL,
	"menu_order" integer DEFAULT 0 NOT NULL,
	"attributes" jsonb NOT NULL,
	"regular_price_cents" integer NOT NULL,
	"sale_price_cents" integer,
	"manage_stock" boolean DEFAULT true NOT NULL,
	"stock_quantity" integer,
	"low_stock_amount" integer,
	"backorders" text DEFAULT 'no' NOT NULL,
	"stock_status" text DEFAULT 'instock' NOT NULL,
	"image_id" integer,
	"description" text DEFAULT '' NOT NULL,
	"weight" text,
	"length" text,
	"width" text,
	"height" text,
	CONSTRAINT "catalog_variations_sku_unique" UNIQUE("sku")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"customer_id" text PRIMARY KEY NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "catalog_downloads" ADD CONSTRAINT "catalog_downloads_product_id_catalog_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."catalog_products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_product_attributes" ADD CONSTRAINT "catalog_product_attributes_product_id_catalog_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."catalog_products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_product_attributes" ADD CONSTRAINT "catalog_product_attributes_attribute_id_catalog_attributes_id_fk" FOREIGN KEY ("attribute_id") REFERENCES "public"."catalog_attributes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_product_images" ADD CONSTRAINT "catalog_product_images_product_id_catalog_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."catalog_products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_product_images" ADD CONSTRAINT "catalog_product_images_image_id_catalog_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."catalog_images"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_product_terms" ADD CONSTRAINT "catalog_product_terms_product_id_catalog_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."catalog_products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_product_terms" ADD CONSTRAINT "catalog_product_terms_term_id_catalog_terms_id_fk" FOREIGN KEY ("term_id") REFERENCES "public"."catalog_terms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_products" ADD CONSTRAINT "catalog_products_image_id_catalog_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."catalog_images"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_reviews" ADD CONSTRAINT "catalog_reviews_product_id_catalog_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."catalog_products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_terms" ADD CONSTRAINT "catalog_terms_image_id_catalog_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."catalog_images"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_variations" ADD CONSTRAINT "catalog_variations_product_id_catalog_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."catalog_products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_variations" ADD CONSTRAINT "catalog_variations_image_id_catalog_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."catalog_images"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "catalog_product_terms_term" ON "catalog_product_terms" USING btree ("term_id");--> statement-breakpoint
CREATE INDEX "catalog_products_status" ON "catalog_products" USING btree ("status");--> statement-breakpoint
CREATE INDEX "catalog_reviews_product" ON "catalog_reviews" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "catalog_terms_taxonomy_slug" ON "catalog_terms" USING btree ("taxonomy","slug");--> statement-breakpoint
CREATE INDEX "catalog_variations_product" ON "catalog_variations" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_at" ON "sessions" USING btree ("expires_at");