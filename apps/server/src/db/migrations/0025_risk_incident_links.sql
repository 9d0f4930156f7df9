CREATE TABLE "risk_incident_links" (
	"risk_id" uuid NOT NULL,
	"ticket_id" uuid NOT NULL,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "risk_incident_links_risk_id_ticket_id_pk" PRIMARY KEY("risk_id","ticket_id")
);
--> statement-breakpoint
ALTER TABLE "risk_incident_links" ADD CONSTRAINT "risk_incident_links_risk_id_risks_id_fk" FOREIGN KEY ("risk_id") REFERENCES "public"."risks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_incident_links" ADD CONSTRAINT "risk_incident_links_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "risk_incident_links_ticket_id_index" ON "risk_incident_links" USING btree ("ticket_id");