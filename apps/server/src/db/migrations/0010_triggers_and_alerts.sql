CREATE TABLE "trigger_library_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"domain" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"base_query" text DEFAULT '' NOT NULL,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trigger_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"trigger_id" uuid NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"window_end" timestamp with time zone NOT NULL,
	"ran_at" timestamp with time zone DEFAULT now() NOT NULL,
	"duration_ms" integer DEFAULT 0 NOT NULL,
	"matched" integer DEFAULT 0 NOT NULL,
	"alerts_raised" integer DEFAULT 0 NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "trigger_schedules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"windows" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" uuid,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_on" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "triggers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid,
	"domain" text DEFAULT 'security' NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"type" text NOT NULL,
	"saved_query_id" uuid,
	"interval_seconds" integer NOT NULL,
	"aggregation" jsonb,
	"min_match" integer,
	"max_match" integer,
	"sequence" jsonb,
	"severity" text DEFAULT 'MEDIUM' NOT NULL,
	"notify_only" boolean DEFAULT false NOT NULL,
	"ticket_owner_id" uuid,
	"watcher_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"important_fields" text[] DEFAULT '{}'::text[] NOT NULL,
	"custom_headers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"email_recipients" text[] DEFAULT '{}'::text[] NOT NULL,
	"email_digest" boolean DEFAULT false NOT NULL,
	"labels" text[] DEFAULT '{}'::text[] NOT NULL,
	"schedule_id" uuid,
	"state" text DEFAULT 'ACTIVE' NOT NULL,
	"disabled_reason" text,
	"disabled_until" timestamp with time zone,
	"library_group_id" uuid,
	"copied_from_id" uuid,
	"managed_by" text DEFAULT 'CLIENT' NOT NULL,
	"in_test" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"previous_version_id" uuid,
	"next_run_at" timestamp with time zone,
	"last_window_end" timestamp with time zone,
	"created_by" uuid,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_on" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "alert_state_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"alert_id" uuid NOT NULL,
	"from_state" text NOT NULL,
	"to_state" text NOT NULL,
	"changed_by" uuid,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reason" text,
	"notes" text
);
--> statement-breakpoint
CREATE TABLE "alert_views" (
	"alert_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"viewed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_views_alert_id_user_id_pk" PRIMARY KEY("alert_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"domain" text DEFAULT 'security' NOT NULL,
	"kind" text NOT NULL,
	"trigger_id" uuid,
	"title" text NOT NULL,
	"state" text DEFAULT 'NEW' NOT NULL,
	"severity" text NOT NULL,
	"fired_at" timestamp with time zone DEFAULT now() NOT NULL,
	"window_start" timestamp with time zone,
	"window_end" timestamp with time zone,
	"match_count" integer DEFAULT 0 NOT NULL,
	"group_key" text,
	"events" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"fraud_type" text,
	"fraud_certainty" text,
	"dismissal_reason" text,
	"dismissal_notes" text,
	"ticket_id" uuid,
	"state_changed_at" timestamp with time zone,
	"state_changed_by" uuid,
	"escalated_at" timestamp with time zone,
	"dismissed_at" timestamp with time zone,
	"flagged_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "trigger_runs" ADD CONSTRAINT "trigger_runs_trigger_id_triggers_id_fk" FOREIGN KEY ("trigger_id") REFERENCES "public"."triggers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trigger_schedules" ADD CONSTRAINT "trigger_schedules_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trigger_schedules" ADD CONSTRAINT "trigger_schedules_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "triggers" ADD CONSTRAINT "triggers_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "triggers" ADD CONSTRAINT "triggers_saved_query_id_saved_queries_id_fk" FOREIGN KEY ("saved_query_id") REFERENCES "public"."saved_queries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "triggers" ADD CONSTRAINT "triggers_ticket_owner_id_users_id_fk" FOREIGN KEY ("ticket_owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "triggers" ADD CONSTRAINT "triggers_schedule_id_trigger_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."trigger_schedules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "triggers" ADD CONSTRAINT "triggers_library_group_id_trigger_library_groups_id_fk" FOREIGN KEY ("library_group_id") REFERENCES "public"."trigger_library_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "triggers" ADD CONSTRAINT "triggers_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_state_changes" ADD CONSTRAINT "alert_state_changes_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_state_changes" ADD CONSTRAINT "alert_state_changes_changed_by_users_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_views" ADD CONSTRAINT "alert_views_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_views" ADD CONSTRAINT "alert_views_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_trigger_id_triggers_id_fk" FOREIGN KEY ("trigger_id") REFERENCES "public"."triggers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_state_changed_by_users_id_fk" FOREIGN KEY ("state_changed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "trigger_runs_window" ON "trigger_runs" USING btree ("trigger_id","window_end");--> statement-breakpoint
CREATE UNIQUE INDEX "trigger_schedules_org_name" ON "trigger_schedules" USING btree ("org_id",lower("name"));--> statement-breakpoint
CREATE INDEX "triggers_org_state" ON "triggers" USING btree ("org_id","state");--> statement-breakpoint
CREATE INDEX "triggers_due" ON "triggers" USING btree ("next_run_at") WHERE "triggers"."state" = 'ACTIVE';--> statement-breakpoint
CREATE INDEX "alert_state_changes_alert" ON "alert_state_changes" USING btree ("alert_id","changed_at");--> statement-breakpoint
CREATE INDEX "alerts_org_state_fired" ON "alerts" USING btree ("org_id","domain","state","fired_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "alerts_org_trigger" ON "alerts" USING btree ("org_id","trigger_id","fired_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "alerts_group" ON "alerts" USING btree ("org_id","group_key") WHERE "alerts"."group_key" IS NOT NULL;