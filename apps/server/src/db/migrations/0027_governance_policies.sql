CREATE TABLE "governance_policies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"owner_id" uuid,
	"cat_refs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"review_every_months" integer DEFAULT 12 NOT NULL,
	"last_reviewed_on" date,
	"last_reviewed_by" uuid,
	"created_by" uuid,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_on" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "governance_policy_acknowledgements" (
	"version_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"org_id" uuid NOT NULL,
	"acknowledged_on" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "governance_policy_acknowledgements_version_id_user_id_pk" PRIMARY KEY("version_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "governance_policy_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"policy_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"body" text NOT NULL,
	"change_note" text DEFAULT '' NOT NULL,
	"created_by" uuid,
	"created_on" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"approved_by" uuid,
	"approved_on" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "governance_ticket_policies" (
	"ticket_id" uuid NOT NULL,
	"policy_id" uuid NOT NULL,
	"org_id" uuid NOT NULL,
	"linked_by" uuid,
	"linked_on" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "governance_ticket_policies_ticket_id_policy_id_pk" PRIMARY KEY("ticket_id","policy_id")
);
--> statement-breakpoint
ALTER TABLE "governance_policies" ADD CONSTRAINT "governance_policies_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_policies" ADD CONSTRAINT "governance_policies_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_policies" ADD CONSTRAINT "governance_policies_last_reviewed_by_users_id_fk" FOREIGN KEY ("last_reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_policies" ADD CONSTRAINT "governance_policies_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_policy_acknowledgements" ADD CONSTRAINT "governance_policy_acknowledgements_version_id_governance_policy_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."governance_policy_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_policy_acknowledgements" ADD CONSTRAINT "governance_policy_acknowledgements_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_policy_acknowledgements" ADD CONSTRAINT "governance_policy_acknowledgements_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_policy_versions" ADD CONSTRAINT "governance_policy_versions_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_policy_versions" ADD CONSTRAINT "governance_policy_versions_policy_id_governance_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."governance_policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_policy_versions" ADD CONSTRAINT "governance_policy_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_policy_versions" ADD CONSTRAINT "governance_policy_versions_approved_by_users_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_ticket_policies" ADD CONSTRAINT "governance_ticket_policies_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_ticket_policies" ADD CONSTRAINT "governance_ticket_policies_policy_id_governance_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."governance_policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_ticket_policies" ADD CONSTRAINT "governance_ticket_policies_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_ticket_policies" ADD CONSTRAINT "governance_ticket_policies_linked_by_users_id_fk" FOREIGN KEY ("linked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "governance_policies_org_kind_name" ON "governance_policies" USING btree ("org_id","kind",lower("name")) WHERE "governance_policies"."deleted_on" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "governance_policy_versions_number" ON "governance_policy_versions" USING btree ("policy_id","number");--> statement-breakpoint
CREATE INDEX "governance_ticket_policies_policy_id_index" ON "governance_ticket_policies" USING btree ("policy_id");