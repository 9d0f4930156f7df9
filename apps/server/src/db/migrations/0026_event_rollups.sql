CREATE TABLE "event_hour_versions" (
	"org_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"version" bigint NOT NULL,
	CONSTRAINT "event_hour_versions_org_id_hour_pk" PRIMARY KEY("org_id","hour")
);
--> statement-breakpoint
CREATE TABLE "event_rollup_counts" (
	"org_id" uuid NOT NULL,
	"rollup" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"term" text NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "event_rollup_counts_org_id_rollup_hour_term_pk" PRIMARY KEY("org_id","rollup","hour","term")
);
--> statement-breakpoint
CREATE TABLE "event_rollup_hours" (
	"org_id" uuid NOT NULL,
	"rollup" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"version" bigint NOT NULL,
	CONSTRAINT "event_rollup_hours_org_id_rollup_hour_pk" PRIMARY KEY("org_id","rollup","hour")
);
