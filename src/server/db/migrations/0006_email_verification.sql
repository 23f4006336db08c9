-- E-mail verification. customers.email_verified_at is when the account's current address was proven to
-- belong to its holder (a verification link opened while logged in, a completed password reset, a
-- login provider's verified address); null means never. A login provider's identity is linked to an
-- existing account by e-mail only when the account's address is verified, so registering somebody
-- else's address no longer lets that account take over their later provider login.
--
-- Existing accounts start unverified, except those only the holder of a provider's verified address
-- can ever have used: accounts without a password that have a linked identity naming the account's
-- current address (a provider login created them, which required a verified e-mail, and no password
-- was ever set, not even by a reset). Orders prove nothing (anyone can order with any address), and a
-- password account's linked identity may be the very takeover this column prevents. An unverified
-- customer sees a note with "send the confirmation e-mail again" in the account details; logins work
-- as before, only a provider login that would link to the account asks for its password first.
ALTER TABLE "customers" ADD COLUMN "email_verified_at" timestamp with time zone;--> statement-breakpoint
UPDATE "customers" SET "email_verified_at" = "created_at"
WHERE "password_hash" IS NULL
  AND EXISTS (SELECT 1 FROM "customer_identities" i WHERE i."user_id" = "customers"."id" AND lower(i."email") = lower("customers"."email"));--> statement-breakpoint
CREATE TABLE "email_verification_keys" (
	"key_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"email" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_verification_keys" ADD CONSTRAINT "email_verification_keys_user_id_customers_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_verification_keys_user" ON "email_verification_keys" USING btree ("user_id");
