ALTER TABLE "trigger_library_groups" ADD COLUMN "modified_on" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "triggers" ADD COLUMN "library_version" integer;--> statement-breakpoint
ALTER TABLE "triggers" ADD COLUMN "base_query" text;--> statement-breakpoint
ALTER TABLE "triggers" ADD COLUMN "resync_info" jsonb;--> statement-breakpoint
CREATE UNIQUE INDEX "trigger_library_groups_name" ON "trigger_library_groups" USING btree ("domain",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "triggers_one_copy_per_org" ON "triggers" USING btree ("org_id","copied_from_id") WHERE "triggers"."copied_from_id" IS NOT NULL AND "triggers"."state" <> 'ARCHIVED';