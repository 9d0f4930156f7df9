ALTER TABLE "report_schedules" ALTER COLUMN "org_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "report_templates" ALTER COLUMN "org_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "report_schedules" ADD COLUMN "library" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "report_schedules" ADD COLUMN "copied_from_id" uuid;--> statement-breakpoint
ALTER TABLE "report_templates" ADD COLUMN "library" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "report_templates" ADD COLUMN "copied_from_id" uuid;--> statement-breakpoint
ALTER TABLE "report_schedules" ADD CONSTRAINT "report_schedules_copied_from_id_report_schedules_id_fk" FOREIGN KEY ("copied_from_id") REFERENCES "public"."report_schedules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_templates" ADD CONSTRAINT "report_templates_copied_from_id_report_templates_id_fk" FOREIGN KEY ("copied_from_id") REFERENCES "public"."report_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_schedules_copied_from" ON "report_schedules" USING btree ("copied_from_id");