CREATE TABLE "escalation_notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"ticket_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"step_name" text NOT NULL,
	"user_id" uuid,
	"email" text,
	"due_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"reason" text,
	"sent_to" text,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "escalation_out_of_office" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "escalation_settings" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"mode" text DEFAULT 'WEEKDAYS' NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"days" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "escalation_steps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"user_id" uuid,
	"email" text,
	"hours" text DEFAULT 'ALWAYS' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "escalation_steps_one_contact" CHECK (("escalation_steps"."user_id" IS NULL) <> ("escalation_steps"."email" IS NULL))
);
--> statement-breakpoint
ALTER TABLE "escalation_notifications" ADD CONSTRAINT "escalation_notifications_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "escalation_notifications" ADD CONSTRAINT "escalation_notifications_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "escalation_notifications" ADD CONSTRAINT "escalation_notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "escalation_out_of_office" ADD CONSTRAINT "escalation_out_of_office_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "escalation_out_of_office" ADD CONSTRAINT "escalation_out_of_office_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "escalation_settings" ADD CONSTRAINT "escalation_settings_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "escalation_steps" ADD CONSTRAINT "escalation_steps_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "escalation_steps" ADD CONSTRAINT "escalation_steps_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "escalation_notifications_ticket_position" ON "escalation_notifications" USING btree ("ticket_id","position");--> statement-breakpoint
CREATE INDEX "escalation_notifications_due" ON "escalation_notifications" USING btree ("due_at") WHERE "escalation_notifications"."status" = 'PENDING';--> statement-breakpoint
CREATE INDEX "escalation_out_of_office_org_id_starts_at_index" ON "escalation_out_of_office" USING btree ("org_id","starts_at");--> statement-breakpoint
CREATE INDEX "escalation_steps_org_id_position_index" ON "escalation_steps" USING btree ("org_id","position");