-- The durable mail outbox: every mail the shop sends is a row of mail_queue, written in the same
-- transaction as the change that causes it (order placed or completed, reset or verification requested,
-- newsletter sign-up, contact message, …). A background sender in every engine process delivers the
-- queued rows (FOR UPDATE SKIP LOCKED on PostgreSQL, so each row has one sender at a time), retries
-- failures with exponential backoff and marks each row sent or failed. Before this, mail was sent from
-- memory after the commit and a process that died in between lost it.
CREATE TABLE "mail_queue" (
	"id" serial PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"kind" text NOT NULL,
	"topic" text,
	"message_id" text NOT NULL,
	"recipients" jsonb NOT NULL,
	"subject" text NOT NULL,
	"content" jsonb,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "mail_queue_status_known" CHECK ("status" IN ('queued', 'sent', 'failed', 'cancelled'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "mail_queue_idempotency_key" ON "mail_queue" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "mail_queue_due" ON "mail_queue" USING btree ("next_attempt_at") WHERE "mail_queue"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "mail_queue_status_updated" ON "mail_queue" USING btree ("status","updated_at");--> statement-breakpoint
CREATE INDEX "mail_queue_topic" ON "mail_queue" USING btree ("topic") WHERE "mail_queue"."topic" is not null;
