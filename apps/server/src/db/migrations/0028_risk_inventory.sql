CREATE TABLE "risk_incident_links" (
	"risk_id" uuid NOT NULL,
	"ticket_id" uuid NOT NULL,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "risk_incident_links_risk_id_ticket_id_pk" PRIMARY KEY("risk_id","ticket_id")
);
--> statement-breakpoint
CREATE TABLE "risk_inventory_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid,
	"library" boolean DEFAULT false NOT NULL,
	"copied_from_id" uuid,
	"number" integer NOT NULL,
	"public_id" text NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"definition" text DEFAULT '' NOT NULL,
	"vendor_id" uuid,
	"go_live_date" date,
	"version_number" text DEFAULT '' NOT NULL,
	"data_location" text DEFAULT '' NOT NULL,
	"system_type" text,
	"business_owner_id" uuid,
	"system_admin_id" uuid,
	"asset_type_id" uuid,
	"authorized_people_ids" uuid[] DEFAULT '{}' NOT NULL,
	"user_administrator_ids" uuid[] DEFAULT '{}' NOT NULL,
	"answers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"data_sensitivity" text,
	"business_criticality" text,
	"inherent_risk" text,
	"due_diligence_strength" text,
	"residual_risk" text,
	"unanswered" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" uuid,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_on" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "risk_inventory_line_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"item_id" uuid NOT NULL,
	"name" text NOT NULL,
	"position" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "risk_line_item_links" (
	"risk_id" uuid NOT NULL,
	"line_item_id" uuid NOT NULL,
	CONSTRAINT "risk_line_item_links_risk_id_line_item_id_pk" PRIMARY KEY("risk_id","line_item_id")
);
--> statement-breakpoint
CREATE TABLE "risk_system_links" (
	"risk_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	CONSTRAINT "risk_system_links_risk_id_item_id_pk" PRIMARY KEY("risk_id","item_id")
);
--> statement-breakpoint
ALTER TABLE "risk_incident_links" ADD CONSTRAINT "risk_incident_links_risk_id_risks_id_fk" FOREIGN KEY ("risk_id") REFERENCES "public"."risks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_incident_links" ADD CONSTRAINT "risk_incident_links_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_inventory_items" ADD CONSTRAINT "risk_inventory_items_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_inventory_items" ADD CONSTRAINT "risk_inventory_items_vendor_id_risk_list_items_id_fk" FOREIGN KEY ("vendor_id") REFERENCES "public"."risk_list_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_inventory_items" ADD CONSTRAINT "risk_inventory_items_business_owner_id_users_id_fk" FOREIGN KEY ("business_owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_inventory_items" ADD CONSTRAINT "risk_inventory_items_system_admin_id_users_id_fk" FOREIGN KEY ("system_admin_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_inventory_items" ADD CONSTRAINT "risk_inventory_items_asset_type_id_risk_list_items_id_fk" FOREIGN KEY ("asset_type_id") REFERENCES "public"."risk_list_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_inventory_items" ADD CONSTRAINT "risk_inventory_items_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_inventory_line_items" ADD CONSTRAINT "risk_inventory_line_items_item_id_risk_inventory_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."risk_inventory_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_line_item_links" ADD CONSTRAINT "risk_line_item_links_risk_id_risks_id_fk" FOREIGN KEY ("risk_id") REFERENCES "public"."risks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_line_item_links" ADD CONSTRAINT "risk_line_item_links_line_item_id_risk_inventory_line_items_id_fk" FOREIGN KEY ("line_item_id") REFERENCES "public"."risk_inventory_line_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_system_links" ADD CONSTRAINT "risk_system_links_risk_id_risks_id_fk" FOREIGN KEY ("risk_id") REFERENCES "public"."risks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_system_links" ADD CONSTRAINT "risk_system_links_item_id_risk_inventory_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."risk_inventory_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "risk_incident_links_ticket_id_index" ON "risk_incident_links" USING btree ("ticket_id");--> statement-breakpoint
CREATE UNIQUE INDEX "risk_inventory_items_org_public_id" ON "risk_inventory_items" USING btree ("org_id","public_id");--> statement-breakpoint
CREATE UNIQUE INDEX "risk_inventory_items_org_copied_from" ON "risk_inventory_items" USING btree ("org_id","copied_from_id") WHERE "risk_inventory_items"."copied_from_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "risk_inventory_line_items_item_id_position_index" ON "risk_inventory_line_items" USING btree ("item_id","position");--> statement-breakpoint
CREATE INDEX "risk_line_item_links_line_item_id_index" ON "risk_line_item_links" USING btree ("line_item_id");--> statement-breakpoint
CREATE INDEX "risk_system_links_item_id_index" ON "risk_system_links" USING btree ("item_id");