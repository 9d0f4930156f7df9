CREATE TABLE "control_evidence" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"control_id" uuid NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"content" "bytea" NOT NULL,
	"created_by" uuid,
	"created_on" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_schedules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"risk_id" uuid,
	"control_id" uuid,
	"every" integer NOT NULL,
	"unit" text NOT NULL,
	"next_review" date NOT NULL,
	"last_reviewed" date,
	"watcher_ids" uuid[] NOT NULL,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_schedules_one_object" CHECK (("review_schedules"."risk_id" IS NULL) <> ("review_schedules"."control_id" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "risk_control_links" (
	"risk_id" uuid NOT NULL,
	"control_id" uuid NOT NULL,
	CONSTRAINT "risk_control_links_risk_id_control_id_pk" PRIMARY KEY("risk_id","control_id")
);
--> statement-breakpoint
CREATE TABLE "risk_controls" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid,
	"library" boolean DEFAULT false NOT NULL,
	"copied_from_id" uuid,
	"number" integer NOT NULL,
	"public_id" text NOT NULL,
	"name" text NOT NULL,
	"definition" text DEFAULT '' NOT NULL,
	"key_control" boolean DEFAULT false NOT NULL,
	"owner_id" uuid,
	"type" text,
	"category" text,
	"configuration" text,
	"design_effectiveness" text,
	"operating_effectiveness" text,
	"overall_score" text,
	"overall_score_reason" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" uuid,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_on" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "risk_counters" (
	"scope" text NOT NULL,
	"kind" text NOT NULL,
	"last_number" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "risk_counters_scope_kind_pk" PRIMARY KEY("scope","kind")
);
--> statement-breakpoint
CREATE TABLE "risk_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"risk_id" uuid,
	"control_id" uuid,
	"actor_id" uuid,
	"kind" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "risk_links" (
	"first_id" uuid NOT NULL,
	"second_id" uuid NOT NULL,
	CONSTRAINT "risk_links_first_id_second_id_pk" PRIMARY KEY("first_id","second_id"),
	CONSTRAINT "risk_links_ordered" CHECK ("risk_links"."first_id" < "risk_links"."second_id")
);
--> statement-breakpoint
CREATE TABLE "risk_list_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "risks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid,
	"library" boolean DEFAULT false NOT NULL,
	"copied_from_id" uuid,
	"number" integer NOT NULL,
	"public_id" text NOT NULL,
	"name" text NOT NULL,
	"definition" text DEFAULT '' NOT NULL,
	"key_risk" boolean DEFAULT false NOT NULL,
	"show_in_preview" boolean DEFAULT false NOT NULL,
	"risk_event_type" text,
	"risk_event_sub_type" text,
	"cause_category" text,
	"cause_sub_type" text,
	"consequence" text,
	"consequence_sub_type" text,
	"erm_connections" text[] DEFAULT '{}' NOT NULL,
	"response" text,
	"mitigation_plan" text DEFAULT '' NOT NULL,
	"business_owner_id" uuid,
	"business_unit_ids" uuid[] DEFAULT '{}' NOT NULL,
	"watcher_ids" uuid[] DEFAULT '{}' NOT NULL,
	"audit_ids" uuid[] DEFAULT '{}' NOT NULL,
	"policy_ids" uuid[] DEFAULT '{}' NOT NULL,
	"tag_ids" uuid[] DEFAULT '{}' NOT NULL,
	"modules" text[] NOT NULL,
	"exception" boolean DEFAULT false NOT NULL,
	"state" text DEFAULT 'ACTIVE' NOT NULL,
	"due_date" date,
	"time_zone_id" text,
	"potential_impact" text,
	"likelihood" text,
	"inherent_risk" text,
	"inherent_risk_reason" text,
	"control_strength" text,
	"control_strength_reason" text,
	"residual_risk" text,
	"residual_risk_reason" text,
	"risk_direction" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" uuid,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_on" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "control_evidence" ADD CONSTRAINT "control_evidence_control_id_risk_controls_id_fk" FOREIGN KEY ("control_id") REFERENCES "public"."risk_controls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "control_evidence" ADD CONSTRAINT "control_evidence_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_schedules" ADD CONSTRAINT "review_schedules_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_schedules" ADD CONSTRAINT "review_schedules_risk_id_risks_id_fk" FOREIGN KEY ("risk_id") REFERENCES "public"."risks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_schedules" ADD CONSTRAINT "review_schedules_control_id_risk_controls_id_fk" FOREIGN KEY ("control_id") REFERENCES "public"."risk_controls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_control_links" ADD CONSTRAINT "risk_control_links_risk_id_risks_id_fk" FOREIGN KEY ("risk_id") REFERENCES "public"."risks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_control_links" ADD CONSTRAINT "risk_control_links_control_id_risk_controls_id_fk" FOREIGN KEY ("control_id") REFERENCES "public"."risk_controls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_controls" ADD CONSTRAINT "risk_controls_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_controls" ADD CONSTRAINT "risk_controls_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_controls" ADD CONSTRAINT "risk_controls_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_history" ADD CONSTRAINT "risk_history_risk_id_risks_id_fk" FOREIGN KEY ("risk_id") REFERENCES "public"."risks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_history" ADD CONSTRAINT "risk_history_control_id_risk_controls_id_fk" FOREIGN KEY ("control_id") REFERENCES "public"."risk_controls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_history" ADD CONSTRAINT "risk_history_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_links" ADD CONSTRAINT "risk_links_first_id_risks_id_fk" FOREIGN KEY ("first_id") REFERENCES "public"."risks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_links" ADD CONSTRAINT "risk_links_second_id_risks_id_fk" FOREIGN KEY ("second_id") REFERENCES "public"."risks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_list_items" ADD CONSTRAINT "risk_list_items_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risks" ADD CONSTRAINT "risks_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risks" ADD CONSTRAINT "risks_business_owner_id_risk_list_items_id_fk" FOREIGN KEY ("business_owner_id") REFERENCES "public"."risk_list_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risks" ADD CONSTRAINT "risks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "control_evidence_control_id_created_on_index" ON "control_evidence" USING btree ("control_id","created_on");--> statement-breakpoint
CREATE UNIQUE INDEX "review_schedules_risk" ON "review_schedules" USING btree ("risk_id");--> statement-breakpoint
CREATE UNIQUE INDEX "review_schedules_control" ON "review_schedules" USING btree ("control_id");--> statement-breakpoint
CREATE INDEX "risk_control_links_control_id_index" ON "risk_control_links" USING btree ("control_id");--> statement-breakpoint
CREATE UNIQUE INDEX "risk_controls_org_public_id" ON "risk_controls" USING btree ("org_id","public_id");--> statement-breakpoint
CREATE UNIQUE INDEX "risk_controls_org_copied_from" ON "risk_controls" USING btree ("org_id","copied_from_id") WHERE "risk_controls"."copied_from_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "risk_history_risk_id_at_index" ON "risk_history" USING btree ("risk_id","at");--> statement-breakpoint
CREATE INDEX "risk_history_control_id_at_index" ON "risk_history" USING btree ("control_id","at");--> statement-breakpoint
CREATE INDEX "risk_links_second_id_index" ON "risk_links" USING btree ("second_id");--> statement-breakpoint
CREATE UNIQUE INDEX "risk_list_items_org_kind_name" ON "risk_list_items" USING btree ("org_id","kind",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "risks_org_public_id" ON "risks" USING btree ("org_id","public_id");--> statement-breakpoint
CREATE UNIQUE INDEX "risks_org_copied_from" ON "risks" USING btree ("org_id","copied_from_id") WHERE "risks"."copied_from_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "risks_org_state" ON "risks" USING btree ("org_id","state","number");