CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "assets_search_text_trgm" ON "assets" USING gin ("search_text" gin_trgm_ops);