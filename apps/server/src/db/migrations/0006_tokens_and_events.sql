CREATE TABLE "input_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"secret_hash" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"queue_name" text,
	"cloud_access_key_id" text,
	"cloud_secret_encrypted" text,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"revoked_by" uuid,
	"last_used_at" timestamp with time zone,
	"created_by" uuid,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"org_id" uuid NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"host" text,
	"src_ip" "inet",
	"dst_ip" "inet",
	"user_name" text,
	"data_source" text,
	"message" text DEFAULT '' NOT NULL,
	"fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, message) || jsonb_to_tsvector('simple'::regconfig, fields, '["string", "numeric"]'::jsonb)) STORED,
	CONSTRAINT "events_org_id_ts_id_pk" PRIMARY KEY("org_id","ts","id")
) PARTITION BY RANGE ("ts");
--> statement-breakpoint
-- Daily partitions are created ahead by the partition job; this one takes any event outside them.
CREATE TABLE "events_default" PARTITION OF "events" DEFAULT;
--> statement-breakpoint
ALTER TABLE "input_tokens" ADD CONSTRAINT "input_tokens_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "input_tokens" ADD CONSTRAINT "input_tokens_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "input_tokens" ADD CONSTRAINT "input_tokens_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "input_tokens_key" ON "input_tokens" USING btree ("key");--> statement-breakpoint
CREATE INDEX "input_tokens_org" ON "input_tokens" USING btree ("org_id","kind");--> statement-breakpoint
CREATE INDEX "events_org_ts" ON "events" USING btree ("org_id","ts" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_org_host" ON "events" USING btree ("org_id",lower("host"));--> statement-breakpoint
CREATE INDEX "events_org_src_ip" ON "events" USING btree ("org_id","src_ip");--> statement-breakpoint
CREATE INDEX "events_org_dst_ip" ON "events" USING btree ("org_id","dst_ip");--> statement-breakpoint
CREATE INDEX "events_fields" ON "events" USING gin ("fields" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "events_search" ON "events" USING gin ("search");