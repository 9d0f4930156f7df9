CREATE TABLE "risk_assessments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"public_id" text NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"state" text DEFAULT 'DRAFT' NOT NULL,
	"executive_summary" text DEFAULT '' NOT NULL,
	"item_ids" uuid[] DEFAULT '{}' NOT NULL,
	"inherent_risk" text,
	"residual_risk" text,
	"completed_items" jsonb,
	"completed_on" timestamp with time zone,
	"completed_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" uuid,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_on" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "risk_assessments" ADD CONSTRAINT "risk_assessments_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_assessments" ADD CONSTRAINT "risk_assessments_completed_by_users_id_fk" FOREIGN KEY ("completed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_assessments" ADD CONSTRAINT "risk_assessments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "risk_assessments_org_public_id" ON "risk_assessments" USING btree ("org_id","public_id");--> statement-breakpoint
CREATE INDEX "risk_assessments_org_state" ON "risk_assessments" USING btree ("org_id","state");