CREATE TABLE "job_descriptors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_job_descriptors" (
	"user_id" uuid NOT NULL,
	"job_descriptor_id" uuid NOT NULL,
	CONSTRAINT "user_job_descriptors_user_id_job_descriptor_id_pk" PRIMARY KEY("user_id","job_descriptor_id")
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"color" text DEFAULT 'gray' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "data_restriction_targets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"restriction_id" uuid NOT NULL,
	"user_id" uuid,
	"target_org_id" uuid,
	CONSTRAINT "data_restriction_targets_one_target" CHECK (("data_restriction_targets"."user_id" IS NULL) <> ("data_restriction_targets"."target_org_id" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "data_restrictions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"include_query" text,
	"exclude_query" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "username" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "contact_numbers" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "job_descriptors" ADD CONSTRAINT "job_descriptors_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_job_descriptors" ADD CONSTRAINT "user_job_descriptors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_job_descriptors" ADD CONSTRAINT "user_job_descriptors_job_descriptor_id_job_descriptors_id_fk" FOREIGN KEY ("job_descriptor_id") REFERENCES "public"."job_descriptors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_restriction_targets" ADD CONSTRAINT "data_restriction_targets_restriction_id_data_restrictions_id_fk" FOREIGN KEY ("restriction_id") REFERENCES "public"."data_restrictions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_restriction_targets" ADD CONSTRAINT "data_restriction_targets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_restriction_targets" ADD CONSTRAINT "data_restriction_targets_target_org_id_orgs_id_fk" FOREIGN KEY ("target_org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_restrictions" ADD CONSTRAINT "data_restrictions_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "job_descriptors_org_name_unique" ON "job_descriptors" USING btree ("org_id",lower("name"));--> statement-breakpoint
CREATE INDEX "user_job_descriptors_job_descriptor_id_index" ON "user_job_descriptors" USING btree ("job_descriptor_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tags_org_name_unique" ON "tags" USING btree ("org_id",lower("name"));--> statement-breakpoint
CREATE INDEX "data_restriction_targets_restriction_id_index" ON "data_restriction_targets" USING btree ("restriction_id");--> statement-breakpoint
CREATE INDEX "data_restriction_targets_user_id_index" ON "data_restriction_targets" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "data_restriction_targets_target_org_id_index" ON "data_restriction_targets" USING btree ("target_org_id");--> statement-breakpoint
CREATE INDEX "data_restrictions_org_id_index" ON "data_restrictions" USING btree ("org_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_unique" ON "users" USING btree (lower("username"));