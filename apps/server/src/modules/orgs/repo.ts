import { asc, eq, inArray, or } from 'drizzle-orm';
import type { ManagementMode, OrgSettings, ProductSku } from '@vigil/contracts';
import type { Db } from '../../db/client';
import { userOrgs } from '../users/tables';
import { orgs } from './tables';

export interface NewOrg {
  name: string;
  isProvider?: boolean;
  productSkus?: ProductSku[];
  managementMode?: ManagementMode;
  featureFlags?: Partial<Record<string, boolean>>;
  settings?: Partial<OrgSettings>;
}

export async function insertOrg(db: Db, org: NewOrg) {
  const [created] = await db.insert(orgs).values(org).returning();
  return created!;
}

export async function findProviderOrg(db: Db) {
  const [org] = await db.select().from(orgs).where(eq(orgs.isProvider, true)).limit(1);
  return org ?? null;
}

/** The organisations a user may act in: the home organisation and those they are authorised for. */
export async function listUserOrgs(db: Db, user: { id: string; homeOrgId: string }) {
  const granted = db.select({ orgId: userOrgs.orgId }).from(userOrgs).where(eq(userOrgs.userId, user.id));
  return db
    .select({ id: orgs.id, name: orgs.name, productSkus: orgs.productSkus })
    .from(orgs)
    .where(or(eq(orgs.id, user.homeOrgId), inArray(orgs.id, granted)))
    .orderBy(asc(orgs.name));
}

export type OrgRow = typeof orgs.$inferSelect;

export async function findOrg(db: Db, orgId: string): Promise<OrgRow | null> {
  const [org] = await db.select().from(orgs).where(eq(orgs.id, orgId)).limit(1);
  return org ?? null;
}

export async function listAllOrgs(db: Db): Promise<OrgRow[]> {
  return db.select().from(orgs).orderBy(asc(orgs.name));
}

export async function updateOrg(
  db: Db,
  orgId: string,
  values: Partial<Pick<OrgRow, 'name' | 'productSkus' | 'managementMode' | 'featureFlags' | 'settings'>>,
): Promise<OrgRow | null> {
  const [org] = await db
    .update(orgs)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(orgs.id, orgId))
    .returning();
  return org ?? null;
}
