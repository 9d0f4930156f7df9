ALTER TABLE "risk_assessments" ADD COLUMN "module" text DEFAULT 'INFORMATION_SECURITY' NOT NULL;--> statement-breakpoint
ALTER TABLE "risk_controls" ADD COLUMN "trigger_ids" uuid[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "risks" ADD COLUMN "revisit_scores" jsonb;--> statement-breakpoint
UPDATE "risk_assessments" AS a SET "module" = coalesce((SELECT r."modules"[1] FROM "risks" r WHERE r."id" = ANY(a."item_ids") ORDER BY r."number" LIMIT 1), 'INFORMATION_SECURITY') WHERE a."kind" = 'RISK';--> statement-breakpoint
UPDATE "risk_assessments" AS a SET "module" = CASE WHEN cardinality(a."item_ids") > 0 AND NOT EXISTS (SELECT 1 FROM "risk_inventory_items" i WHERE i."id" = ANY(a."item_ids") AND i."kind" <> 'VENDOR') THEN 'THIRD_PARTY_RISK' ELSE 'SYSTEMS_AND_APPLICATIONS' END WHERE a."kind" = 'INVENTORY';
