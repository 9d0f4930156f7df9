ALTER TABLE "pending_actions" ADD COLUMN "trigger_id" uuid;--> statement-breakpoint
ALTER TABLE "pending_actions" ADD COLUMN "alert_id" uuid;--> statement-breakpoint
ALTER TABLE "triggers" ADD COLUMN "action_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
CREATE INDEX "pending_actions_alert" ON "pending_actions" USING btree ("org_id","alert_id");--> statement-breakpoint
CREATE INDEX "pending_actions_queued" ON "pending_actions" USING btree ("created_on") WHERE "pending_actions"."state" = 'PENDING';