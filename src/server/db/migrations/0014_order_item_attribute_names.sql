-- A line's variation choices as the customer saw them when ordering ([{ key, name, value }]: "pa_gain",
-- "Antennengewinn", "5,8 dBi"), in the order's language, as WooCommerce keeps a line item's meta: a later
-- rename or translation of the attribute or term does not change orders already placed. Lines ordered
-- before this column existed keep '[]' and are named from the catalog.
ALTER TABLE "order_items" ADD COLUMN "attribute_names" jsonb DEFAULT '[]'::jsonb NOT NULL;
