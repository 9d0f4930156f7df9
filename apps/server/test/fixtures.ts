import type { Permission, ProductSku } from '@vigil/contracts';
import type { Db } from '../src/db/client';
import { createSession } from '../src/modules/auth/sessions';
import { insertOrg, type NewOrg } from '../src/modules/orgs/repo';
import { roles } from '../src/modules/roles/tables';
import { insertUser } from '../src/modules/users/repo';
import { users } from '../src/modules/users/tables';
import { SESSION_COOKIE } from '../src/platform/access';
import { hashPassword } from '../src/platform/passwords';
import { eq } from 'drizzle-orm';

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

export async function seedOrg(db: Db, overrides: Partial<NewOrg> & { productSkus?: ProductSku[] } = {}) {
  return insertOrg(db, { name: `Org ${unique()}`, ...overrides });
}

export async function seedRole(db: Db, permissions: Permission[], orgId: string | null = null) {
  const [role] = await db
    .insert(roles)
    .values({ name: `Role ${unique()}`, permissions, orgId, shared: orgId === null })
    .returning();
  return role!;
}

export interface SeededUser {
  id: string;
  email: string;
  /** A Cookie header value carrying a fresh session of this user. */
  cookie: string;
}

/** A user of `homeOrgId` with a role holding `permissions`, signed in. */
export async function seedUser(
  db: Db,
  input: {
    homeOrgId: string;
    permissions: Permission[];
    authorisedOrgIds?: string[];
    readOnlyMode?: boolean;
    password?: string;
    email?: string;
  },
): Promise<SeededUser> {
  const role = await seedRole(db, input.permissions);
  const email = input.email ?? `user-${unique()}@example.com`;
  const user = await insertUser(db, {
    email,
    firstName: 'Test',
    lastName: 'User',
    homeOrgId: input.homeOrgId,
    roleId: role.id,
    passwordHash: input.password ? await hashPassword(input.password) : null,
    authorisedOrgIds: input.authorisedOrgIds,
  });
  if (input.readOnlyMode) await db.update(users).set({ readOnlyMode: true }).where(eq(users.id, user.id));
  const token = await createSession(db, { userId: user.id });
  return { id: user.id, email, cookie: `${SESSION_COOKIE}=${token}` };
}
