-- The operators' audit log (src/server/audit/): who exported or erased which customer's personal data,
-- and when. "actor" is "user:<id>" for a shop manager in /admin or "cli:<os user>" for the command line.
-- The customer is named by the account id and "customer_ref", a keyed hash of the e-mail address: after
-- an erasure the log must not hold the address in clear, yet an operator asked "did you erase
-- x@example.com?" can compute the reference again and find the entry. "detail" holds counts only.
CREATE TABLE "audit_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"customer_id" integer NOT NULL,
	"customer_ref" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "audit_log_action_known" CHECK ("action" IN ('customer-export', 'customer-erase'))
);
--> statement-breakpoint
CREATE INDEX "audit_log_customer_ref" ON "audit_log" USING btree ("customer_ref");
--> statement-breakpoint
CREATE INDEX "audit_log_at" ON "audit_log" USING btree ("at");
