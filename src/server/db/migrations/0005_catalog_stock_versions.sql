ALTER TABLE "catalog_products" ADD COLUMN "stock_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "catalog_variations" ADD COLUMN "stock_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "catalog_products_stock_version" ON "catalog_products" USING btree ("stock_version");--> statement-breakpoint
CREATE INDEX "catalog_variations_stock_version" ON "catalog_variations" USING btree ("stock_version");
