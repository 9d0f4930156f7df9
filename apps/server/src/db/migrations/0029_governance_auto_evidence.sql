CREATE TABLE "governance_evidence_evaluations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source_id" uuid NOT NULL,
	"state" text NOT NULL,
	"reason" text NOT NULL,
	"figures" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"evaluated_on" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "governance_evidence_sources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"period_id" uuid NOT NULL,
	"control_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"trigger_id" uuid,
	"window" integer NOT NULL,
	"threshold" integer,
	"created_by" uuid,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "governance_evidence_evaluations" ADD CONSTRAINT "governance_evidence_evaluations_source_id_governance_evidence_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."governance_evidence_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_evidence_sources" ADD CONSTRAINT "governance_evidence_sources_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_evidence_sources" ADD CONSTRAINT "governance_evidence_sources_period_id_governance_periods_id_fk" FOREIGN KEY ("period_id") REFERENCES "public"."governance_periods"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_evidence_sources" ADD CONSTRAINT "governance_evidence_sources_control_id_governance_controls_id_fk" FOREIGN KEY ("control_id") REFERENCES "public"."governance_controls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_evidence_sources" ADD CONSTRAINT "governance_evidence_sources_trigger_id_triggers_id_fk" FOREIGN KEY ("trigger_id") REFERENCES "public"."triggers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_evidence_sources" ADD CONSTRAINT "governance_evidence_sources_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "governance_evidence_evaluations_source_id_evaluated_on_index" ON "governance_evidence_evaluations" USING btree ("source_id","evaluated_on");--> statement-breakpoint
CREATE INDEX "governance_evidence_sources_period_id_control_id_index" ON "governance_evidence_sources" USING btree ("period_id","control_id");