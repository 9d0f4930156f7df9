CREATE TABLE "classifiers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"query" text NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"drop_event" boolean DEFAULT false NOT NULL,
	"skip_threat_match" boolean DEFAULT false NOT NULL,
	"skip_anomaly_detection" boolean DEFAULT false NOT NULL,
	"skip_asset_detection" boolean DEFAULT false NOT NULL,
	"accelerated_archive" boolean DEFAULT false NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_by" uuid,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_on" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "custom_parsers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"data_source" text NOT NULL,
	"mappings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" uuid,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_on" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "flags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "classifiers" ADD CONSTRAINT "classifiers_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "classifiers" ADD CONSTRAINT "classifiers_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_parsers" ADD CONSTRAINT "custom_parsers_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_parsers" ADD CONSTRAINT "custom_parsers_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "classifiers_org_name" ON "classifiers" USING btree ("org_id",lower("name")) WHERE "classifiers"."org_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "classifiers_library_name" ON "classifiers" USING btree (lower("name")) WHERE "classifiers"."org_id" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "custom_parsers_org_source" ON "custom_parsers" USING btree ("org_id",lower("data_source"));