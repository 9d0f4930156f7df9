CREATE TABLE "task_schedule_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"schedule_id" uuid NOT NULL,
	"scheduled_for" timestamp with time zone NOT NULL,
	"ran_at" timestamp with time zone NOT NULL,
	"missed" integer DEFAULT 0 NOT NULL,
	"ticket_id" uuid
);
--> statement-breakpoint
CREATE TABLE "task_schedules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"interval_count" integer NOT NULL,
	"interval_unit" text NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"last_ran_at" timestamp with time zone,
	"skip_weekends" boolean DEFAULT false NOT NULL,
	"due_count" integer,
	"due_unit" text,
	"queries" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"parent_id" uuid,
	"task_title" text NOT NULL,
	"task_description" text DEFAULT '' NOT NULL,
	"owner_id" uuid,
	"watcher_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"state" text DEFAULT 'ACTIVE' NOT NULL,
	"copied_from_id" uuid,
	"created_by" uuid,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_on" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "task_schedule_runs" ADD CONSTRAINT "task_schedule_runs_schedule_id_task_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."task_schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_schedule_runs" ADD CONSTRAINT "task_schedule_runs_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_schedules" ADD CONSTRAINT "task_schedules_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_schedules" ADD CONSTRAINT "task_schedules_parent_id_task_schedules_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."task_schedules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_schedules" ADD CONSTRAINT "task_schedules_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_schedules" ADD CONSTRAINT "task_schedules_copied_from_id_task_schedules_id_fk" FOREIGN KEY ("copied_from_id") REFERENCES "public"."task_schedules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_schedules" ADD CONSTRAINT "task_schedules_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "task_schedule_runs_once" ON "task_schedule_runs" USING btree ("schedule_id","scheduled_for");--> statement-breakpoint
CREATE INDEX "task_schedules_due" ON "task_schedules" USING btree ("run_at") WHERE "task_schedules"."state" = 'ACTIVE' AND "task_schedules"."org_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "task_schedules_org_name" ON "task_schedules" USING btree ("org_id",lower("name"));--> statement-breakpoint
CREATE INDEX "task_schedules_parent" ON "task_schedules" USING btree ("parent_id") WHERE "task_schedules"."parent_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "task_schedules_one_copy" ON "task_schedules" USING btree ("org_id","copied_from_id") WHERE "task_schedules"."copied_from_id" IS NOT NULL;