CREATE TABLE "review_reminders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"schedule_id" uuid NOT NULL,
	"cycle" date NOT NULL,
	"stage" text NOT NULL,
	"task_id" uuid,
	"sent_to" text[] NOT NULL,
	"sent_on" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "review_reminders" ADD CONSTRAINT "review_reminders_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_reminders" ADD CONSTRAINT "review_reminders_schedule_id_review_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."review_schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_reminders" ADD CONSTRAINT "review_reminders_task_id_tickets_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tickets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "review_reminders_once" ON "review_reminders" USING btree ("schedule_id","cycle","stage");--> statement-breakpoint
CREATE INDEX "review_reminders_org_id_schedule_id_sent_on_index" ON "review_reminders" USING btree ("org_id","schedule_id","sent_on");