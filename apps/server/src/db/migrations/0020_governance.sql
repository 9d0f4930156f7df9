CREATE TABLE "governance_answers" (
	"period_id" uuid NOT NULL,
	"control_id" uuid NOT NULL,
	"org_id" uuid NOT NULL,
	"status" text,
	"owner_id" uuid,
	"notes" text DEFAULT '' NOT NULL,
	"suggested_status" text,
	"suggested_from" text,
	"modified_by" uuid,
	"modified_on" timestamp with time zone,
	CONSTRAINT "governance_answers_period_id_control_id_pk" PRIMARY KEY("period_id","control_id")
);
--> statement-breakpoint
CREATE TABLE "governance_controls" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"framework_id" uuid NOT NULL,
	"section_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"ref" text NOT NULL,
	"title" text NOT NULL,
	"statement" text DEFAULT '' NOT NULL,
	"examples" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"mandatory" boolean DEFAULT false NOT NULL,
	"alertable" boolean DEFAULT false NOT NULL,
	"trigger_id" uuid
);
--> statement-breakpoint
CREATE TABLE "governance_evidence" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"period_id" uuid NOT NULL,
	"control_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"url" text,
	"ticket_id" uuid,
	"content_type" text,
	"size" bigint,
	"content" "bytea",
	"created_by" uuid,
	"created_on" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "governance_frameworks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"library_key" text,
	"source" text NOT NULL,
	"name" text NOT NULL,
	"version" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"tiers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"target_tier" text,
	"risk_profile" jsonb,
	"created_by" uuid,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "governance_periods" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"framework_id" uuid NOT NULL,
	"name" text NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date NOT NULL,
	"state" text DEFAULT 'IN_PROGRESS' NOT NULL,
	"extensions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tiers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"risk_profile" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"finalized_on" timestamp with time zone,
	"finalized_by" uuid,
	"created_by" uuid,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "governance_sections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"framework_id" uuid NOT NULL,
	"parent_id" uuid,
	"position" integer NOT NULL,
	"ref" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"target_tier" text
);
--> statement-breakpoint
ALTER TABLE "governance_answers" ADD CONSTRAINT "governance_answers_period_id_governance_periods_id_fk" FOREIGN KEY ("period_id") REFERENCES "public"."governance_periods"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_answers" ADD CONSTRAINT "governance_answers_control_id_governance_controls_id_fk" FOREIGN KEY ("control_id") REFERENCES "public"."governance_controls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_answers" ADD CONSTRAINT "governance_answers_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_answers" ADD CONSTRAINT "governance_answers_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_answers" ADD CONSTRAINT "governance_answers_modified_by_users_id_fk" FOREIGN KEY ("modified_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_controls" ADD CONSTRAINT "governance_controls_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_controls" ADD CONSTRAINT "governance_controls_framework_id_governance_frameworks_id_fk" FOREIGN KEY ("framework_id") REFERENCES "public"."governance_frameworks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_controls" ADD CONSTRAINT "governance_controls_section_id_governance_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."governance_sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_controls" ADD CONSTRAINT "governance_controls_trigger_id_triggers_id_fk" FOREIGN KEY ("trigger_id") REFERENCES "public"."triggers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_evidence" ADD CONSTRAINT "governance_evidence_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_evidence" ADD CONSTRAINT "governance_evidence_period_id_governance_periods_id_fk" FOREIGN KEY ("period_id") REFERENCES "public"."governance_periods"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_evidence" ADD CONSTRAINT "governance_evidence_control_id_governance_controls_id_fk" FOREIGN KEY ("control_id") REFERENCES "public"."governance_controls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_evidence" ADD CONSTRAINT "governance_evidence_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_evidence" ADD CONSTRAINT "governance_evidence_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_frameworks" ADD CONSTRAINT "governance_frameworks_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_frameworks" ADD CONSTRAINT "governance_frameworks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_periods" ADD CONSTRAINT "governance_periods_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_periods" ADD CONSTRAINT "governance_periods_framework_id_governance_frameworks_id_fk" FOREIGN KEY ("framework_id") REFERENCES "public"."governance_frameworks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_periods" ADD CONSTRAINT "governance_periods_finalized_by_users_id_fk" FOREIGN KEY ("finalized_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_periods" ADD CONSTRAINT "governance_periods_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_sections" ADD CONSTRAINT "governance_sections_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_sections" ADD CONSTRAINT "governance_sections_framework_id_governance_frameworks_id_fk" FOREIGN KEY ("framework_id") REFERENCES "public"."governance_frameworks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_sections" ADD CONSTRAINT "governance_sections_parent_id_governance_sections_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."governance_sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "governance_controls_framework_id_position_index" ON "governance_controls" USING btree ("framework_id","position");--> statement-breakpoint
CREATE INDEX "governance_controls_section_id_index" ON "governance_controls" USING btree ("section_id");--> statement-breakpoint
CREATE INDEX "governance_evidence_period_id_control_id_index" ON "governance_evidence" USING btree ("period_id","control_id");--> statement-breakpoint
CREATE UNIQUE INDEX "governance_frameworks_org_library" ON "governance_frameworks" USING btree ("org_id","library_key") WHERE "governance_frameworks"."library_key" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "governance_periods_org_id_framework_id_starts_on_index" ON "governance_periods" USING btree ("org_id","framework_id","starts_on");--> statement-breakpoint
CREATE INDEX "governance_sections_framework_id_position_index" ON "governance_sections" USING btree ("framework_id","position");