CREATE TABLE "workspace_shares" (
	"workspace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	CONSTRAINT "workspace_shares_workspace_id_user_id_pk" PRIMARY KEY("workspace_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "workspaces" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid,
	"library" boolean DEFAULT false NOT NULL,
	"copied_from_id" uuid,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"dashboard_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"owner_id" uuid,
	"sharing" text DEFAULT 'NOBODY' NOT NULL,
	"editable_by_others" boolean DEFAULT false NOT NULL,
	"premium_only" boolean DEFAULT false NOT NULL,
	"copy_to_customers" boolean DEFAULT false NOT NULL,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_on" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workspace_shares" ADD CONSTRAINT "workspace_shares_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_shares" ADD CONSTRAINT "workspace_shares_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "workspace_shares_user_id_index" ON "workspace_shares" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "workspaces_org_name" ON "workspaces" USING btree ("org_id",lower("name"));--> statement-breakpoint
CREATE INDEX "workspaces_copied_from" ON "workspaces" USING btree ("org_id","copied_from_id");