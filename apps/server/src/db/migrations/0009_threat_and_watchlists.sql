CREATE TABLE "threat_indicators" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source_id" uuid NOT NULL,
	"type" text NOT NULL,
	"value" text NOT NULL,
	"rating" text NOT NULL,
	"severity" text,
	"reason" text DEFAULT '' NOT NULL,
	"valid_from" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "threat_ratings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"subject_type" text NOT NULL,
	"subject" text NOT NULL,
	"signature_type" text,
	"rating" text NOT NULL,
	"rated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"rated_by" uuid,
	"ignored" boolean DEFAULT false NOT NULL,
	"ignore_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "threat_source_subscriptions" (
	"org_id" uuid NOT NULL,
	"source_id" uuid NOT NULL,
	"subscribed_by" uuid,
	"subscribed_on" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "threat_source_subscriptions_org_id_source_id_pk" PRIMARY KEY("org_id","source_id")
);
--> statement-breakpoint
CREATE TABLE "threat_sources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid,
	"domain" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"url" text,
	"type" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_by" uuid,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_on" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "watchlist_items" (
	"watchlist_id" uuid NOT NULL,
	"value" text NOT NULL,
	CONSTRAINT "watchlist_items_watchlist_id_value_pk" PRIMARY KEY("watchlist_id","value")
);
--> statement-breakpoint
CREATE TABLE "watchlists" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"domain" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"field" text NOT NULL,
	"created_by" uuid,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_on" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "threat_indicators" ADD CONSTRAINT "threat_indicators_source_id_threat_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."threat_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "threat_ratings" ADD CONSTRAINT "threat_ratings_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "threat_ratings" ADD CONSTRAINT "threat_ratings_rated_by_users_id_fk" FOREIGN KEY ("rated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "threat_source_subscriptions" ADD CONSTRAINT "threat_source_subscriptions_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "threat_source_subscriptions" ADD CONSTRAINT "threat_source_subscriptions_source_id_threat_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."threat_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "threat_source_subscriptions" ADD CONSTRAINT "threat_source_subscriptions_subscribed_by_users_id_fk" FOREIGN KEY ("subscribed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "threat_sources" ADD CONSTRAINT "threat_sources_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "threat_sources" ADD CONSTRAINT "threat_sources_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watchlist_items" ADD CONSTRAINT "watchlist_items_watchlist_id_watchlists_id_fk" FOREIGN KEY ("watchlist_id") REFERENCES "public"."watchlists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watchlists" ADD CONSTRAINT "watchlists_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watchlists" ADD CONSTRAINT "watchlists_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "threat_indicators_value" ON "threat_indicators" USING btree ("source_id","type","value");--> statement-breakpoint
CREATE INDEX "threat_indicators_lookup" ON "threat_indicators" USING btree ("type","value");--> statement-breakpoint
CREATE UNIQUE INDEX "threat_ratings_subject" ON "threat_ratings" USING btree ("org_id","subject_type",lower("subject"));--> statement-breakpoint
CREATE UNIQUE INDEX "threat_sources_org_name" ON "threat_sources" USING btree ("org_id","domain",lower("name")) WHERE "threat_sources"."org_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "threat_sources_provider_name" ON "threat_sources" USING btree ("domain",lower("name")) WHERE "threat_sources"."org_id" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "watchlists_org_name" ON "watchlists" USING btree ("org_id","domain",lower("name"));