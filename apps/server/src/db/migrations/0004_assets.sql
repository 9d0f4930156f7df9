CREATE TABLE "asset_address_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"asset_id" uuid NOT NULL,
	"ip" text,
	"mac" text,
	"held_from" timestamp with time zone NOT NULL,
	"held_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "asset_addresses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"asset_id" uuid NOT NULL,
	"ip" text,
	"mac" text,
	"position" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"first_seen" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "asset_config" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"down_notice_enabled" boolean DEFAULT true NOT NULL,
	"discover_untracked" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "asset_software" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"asset_id" uuid NOT NULL,
	"name" text NOT NULL,
	"version" text,
	"last_seen" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "assets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"tag" text,
	"owner" text,
	"importance" text NOT NULL,
	"description" text,
	"labels" text[] DEFAULT '{}'::text[] NOT NULL,
	"hostnames" text[] DEFAULT '{}'::text[] NOT NULL,
	"tracked" boolean DEFAULT true NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"last_seen" timestamp with time zone,
	"data_last_sent" timestamp with time zone,
	"search_text" text DEFAULT '' NOT NULL,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_on" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "asset_address_history" ADD CONSTRAINT "asset_address_history_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "asset_address_history" ADD CONSTRAINT "asset_address_history_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "asset_addresses" ADD CONSTRAINT "asset_addresses_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "asset_addresses" ADD CONSTRAINT "asset_addresses_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "asset_config" ADD CONSTRAINT "asset_config_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "asset_software" ADD CONSTRAINT "asset_software_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "asset_software" ADD CONSTRAINT "asset_software_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assets" ADD CONSTRAINT "assets_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "asset_address_history_ip" ON "asset_address_history" USING btree ("org_id","ip");--> statement-breakpoint
CREATE INDEX "asset_address_history_mac" ON "asset_address_history" USING btree ("org_id","mac");--> statement-breakpoint
CREATE UNIQUE INDEX "asset_addresses_org_ip" ON "asset_addresses" USING btree ("org_id","ip") WHERE "asset_addresses"."ip" IS NOT NULL AND "asset_addresses"."active";--> statement-breakpoint
CREATE UNIQUE INDEX "asset_addresses_org_mac" ON "asset_addresses" USING btree ("org_id","mac") WHERE "asset_addresses"."mac" IS NOT NULL AND "asset_addresses"."active";--> statement-breakpoint
CREATE INDEX "asset_addresses_asset" ON "asset_addresses" USING btree ("asset_id");--> statement-breakpoint
CREATE UNIQUE INDEX "asset_software_asset_name_version" ON "asset_software" USING btree ("asset_id","name",coalesce("version", ''));--> statement-breakpoint
CREATE INDEX "asset_software_org_name" ON "asset_software" USING btree ("org_id","name");--> statement-breakpoint
CREATE INDEX "assets_org_name" ON "assets" USING btree ("org_id","active","name");--> statement-breakpoint
CREATE INDEX "assets_org_last_seen" ON "assets" USING btree ("org_id","active","last_seen");--> statement-breakpoint
CREATE INDEX "assets_labels" ON "assets" USING gin ("labels");