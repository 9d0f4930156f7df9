import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { orgs } from '../orgs/tables';

/** A SAML identity provider of an organisation; users whose e-mail domain it lists sign in there. */
export const samlProviders = pgTable(
  'saml_providers',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    /** Shown to users and used for provider-specific behaviour (Azure/Entra login hints). */
    name: text().notNull(),
    /** The identity provider's single sign-on URL. */
    entryPoint: text().notNull(),
    /** The identity provider's entity id, expected as the response issuer. */
    idpIssuer: text().notNull(),
    /** PEM or base64 signing certificate of the identity provider. */
    idpCert: text().notNull(),
    /** Lower-case e-mail domains routed to this provider. */
    emailDomains: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    enabled: boolean().notNull().default(true),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index().on(table.orgId)],
);
