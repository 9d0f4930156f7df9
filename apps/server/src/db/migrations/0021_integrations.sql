CREATE TABLE "action_integrations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"api_base_url" text NOT NULL,
	"auth_base_url" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret_encrypted" text NOT NULL,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"provider" text NOT NULL,
	"fields" jsonb NOT NULL,
	"multiple_values" text NOT NULL,
	"warning_code" integer,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integrations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"secrets_encrypted" text,
	"last_data_at" timestamp with time zone,
	"last_error" text,
	"last_validated_at" timestamp with time zone,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_on" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pending_actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"action_id" uuid,
	"action_name" text NOT NULL,
	"provider" text NOT NULL,
	"type" text NOT NULL,
	"warning_code" integer,
	"value" text NOT NULL,
	"state" text NOT NULL,
	"request" jsonb,
	"response" jsonb,
	"error" text,
	"created_by" uuid,
	"executed_at" timestamp with time zone,
	"reverted_at" timestamp with time zone,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "s3_log_objects" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"source_id" uuid NOT NULL,
	"key" text NOT NULL,
	"etag" text NOT NULL,
	"size" bigint NOT NULL,
	"events" integer DEFAULT 0 NOT NULL,
	"rejected" integer DEFAULT 0 NOT NULL,
	"error" text,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "s3_log_sources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"integration_id" uuid NOT NULL,
	"bucket" text NOT NULL,
	"role_arn" text,
	"prefix" text DEFAULT '' NOT NULL,
	"logs_type" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"objects_read" integer DEFAULT 0 NOT NULL,
	"events_ingested" bigint DEFAULT 0 NOT NULL,
	"failed_objects" integer DEFAULT 0 NOT NULL,
	"last_polled_at" timestamp with time zone,
	"last_data_at" timestamp with time zone,
	"last_error" text,
	"last_error_key" text,
	"polling_until" timestamp with time zone,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "action_integrations" ADD CONSTRAINT "action_integrations_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_actions" ADD CONSTRAINT "pending_actions_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_actions" ADD CONSTRAINT "pending_actions_action_id_actions_id_fk" FOREIGN KEY ("action_id") REFERENCES "public"."actions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "s3_log_objects" ADD CONSTRAINT "s3_log_objects_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "s3_log_objects" ADD CONSTRAINT "s3_log_objects_source_id_s3_log_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."s3_log_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "s3_log_sources" ADD CONSTRAINT "s3_log_sources_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "s3_log_sources" ADD CONSTRAINT "s3_log_sources_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "action_integrations_org_provider" ON "action_integrations" USING btree ("org_id","provider");--> statement-breakpoint
CREATE UNIQUE INDEX "actions_org_name" ON "actions" USING btree ("org_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "integrations_org_kind_name" ON "integrations" USING btree ("org_id","kind","name");--> statement-breakpoint
CREATE INDEX "integrations_org_kind" ON "integrations" USING btree ("org_id","kind");--> statement-breakpoint
CREATE INDEX "pending_actions_org_created" ON "pending_actions" USING btree ("org_id","created_on");--> statement-breakpoint
CREATE UNIQUE INDEX "s3_log_objects_source_key_etag" ON "s3_log_objects" USING btree ("source_id","key","etag");--> statement-breakpoint
CREATE INDEX "s3_log_objects_source_read" ON "s3_log_objects" USING btree ("source_id","read_at");--> statement-breakpoint
CREATE UNIQUE INDEX "s3_log_sources_org_bucket" ON "s3_log_sources" USING btree ("org_id","bucket");--> statement-breakpoint
CREATE INDEX "s3_log_sources_integration" ON "s3_log_sources" USING btree ("integration_id");