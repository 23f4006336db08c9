-- The catalog's texts in the shop's other languages: { "de_DE": { "name": "…", … }, … } beside the English
-- columns, which stay the base and the fallback. One jsonb column per row keeps the catalog snapshot a single
-- read per table (no join per language) and a missing language or field simply falls back to English.
ALTER TABLE "catalog_products" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "catalog_terms" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "catalog_attributes" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "catalog_product_attributes" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;
