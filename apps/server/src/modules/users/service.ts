import type { User, UserCreate } from '@vigil/contracts';
import type { Db } from '../../db/client';
import type { AccessContext } from '../../platform/access';
import { recordActivity } from '../../platform/audit/audit';
import { conflict, notFound, validationFailed } from '../../platform/errors';
import { createPasswordLink, type AuthDeps } from '../auth/service';
import { assignableRole, assertManageable, viewerOf, type Viewer } from '../roles/rules';
import { setUserJobDescriptors, unknownJobDescriptorIds } from './job-descriptors';
import {
  findOrgUserListRow,
  findUserByUsername,
  findUserIdByEmail,
  insertUser,
  normaliseEmail,
  providerEmailDomain,
  type UserListRow,
  type UserRow,
} from './repo';

export const toUser = (row: UserListRow): User => ({
  id: row.user.id,
  firstName: row.user.firstName,
  lastName: row.user.lastName,
  fullName: `${row.user.firstName} ${row.user.lastName}`.trim(),
  username: row.user.username,
  email: row.email,
  emails: row.emails.map((email) => ({ email })),
  homeOrgId: row.user.homeOrgId,
  roleId: row.user.roleId,
  roleName: row.roleName,
  active: row.user.active,
  google2faEnabled: row.user.google2faEnabled,
  jobDescriptorIds: row.jobDescriptorIds,
  contactNumbers: row.user.contactNumbers,
  lastLoginAt: row.user.lastLoginAt?.toISOString() ?? null,
  createdAt: row.user.createdAt.toISOString(),
});

/** What the activity log keeps of a user before and after a change. */
export const userSnapshot = (user: UserRow, email?: string) => ({
  firstName: user.firstName,
  lastName: user.lastName,
  username: user.username,
  roleId: user.roleId,
  active: user.active,
  deleted: user.deletedAt !== null,
  ...(email !== undefined && { email }),
});

/** The acting user's view of one of the organisation's people: missing, deleted and hidden ones answer 404. */
export async function orgUserFor(db: Db, access: AccessContext, viewer: Viewer, userId: string) {
  const row = await findOrgUserListRow(db, access.org.id, userId, !viewer.seesHidden);
  if (!row) throw notFound('user');
  return row;
}

/** A person the acting user may change in security-relevant ways (see assertManageable). */
export async function manageableUser(db: Db, access: AccessContext, userId: string) {
  const viewer = await viewerOf(db, access);
  const row = await orgUserFor(db, access, viewer, userId);
  await assertManageable(db, access, row.user);
  return { row, viewer };
}

export function assertNotSelf(access: AccessContext, userId: string) {
  if (access.user.id === userId) {
    throw validationFailed('USER_SELF_CHANGE_REFUSED', 'Administrators cannot do this to themselves');
  }
}

/**
 * An address for a user of the organisation: free (across all users) unless it is already theirs, and
 * for the provider's own people, of the provider's domain.
 */
export async function assertEmailUsable(
  db: Db,
  access: AccessContext,
  email: string,
  ownerId?: string,
): Promise<string> {
  const normalised = normaliseEmail(email);
  const holder = await findUserIdByEmail(db, normalised);
  if (holder && holder !== ownerId) {
    throw conflict('USER_EMAIL_TAKEN', 'The e-mail address is in use', { field: 'email' });
  }
  if (access.org.isProvider) {
    const domain = await providerEmailDomain(db);
    if (domain && !normalised.endsWith(`@${domain}`)) {
      throw validationFailed('USER_EMAIL_NOT_PROVIDER_DOMAIN', `Internal users need an @${domain} address`, {
        field: 'email',
        params: { domain },
      });
    }
  }
  return normalised;
}

export async function assertUsernameFree(db: Db, username: string | null | undefined, ownerId?: string) {
  if (!username) return;
  const holder = await findUserByUsername(db, username);
  if (holder && holder !== ownerId) {
    throw conflict('USERNAME_TAKEN', 'The username is in use', { field: 'username' });
  }
}

export async function assertJobDescriptors(db: Db, orgId: string, ids: string[]) {
  const unknown = await unknownJobDescriptorIds(db, orgId, ids);
  if (unknown.length > 0) {
    throw validationFailed('INVALID_JOB_DESCRIPTORS', 'Invalid Job Descriptor(s)', {
      field: 'jobDescriptorIds',
      params: { ids: unknown.join(', ') },
    });
  }
}

export interface NewUserMailOrigin {
  ip: string;
  publicUrl: string;
}

/**
 * Creates a user of the current organisation without a password and mails them a new-user link to
 * choose one.
 */
export async function createOrgUser(
  deps: AuthDeps,
  access: AccessContext,
  input: UserCreate,
  origin: NewUserMailOrigin,
): Promise<User> {
  const { db } = deps;
  const viewer = await viewerOf(db, access);
  const email = await assertEmailUsable(db, access, input.email);
  await assertUsernameFree(db, input.username);
  await assignableRole(db, access, viewer, input.roleId);
  const jobDescriptorIds = input.jobDescriptorIds ?? [];
  if (jobDescriptorIds.length > 0) {
    if (!access.features.jobDescriptors) {
      throw validationFailed('INVALID_JOB_DESCRIPTORS', 'Job descriptors are off in this organisation', {
        field: 'jobDescriptorIds',
      });
    }
    await assertJobDescriptors(db, access.org.id, jobDescriptorIds);
  }

  const { user, link } = await db.transaction(async (tx) => {
    const created = await insertUser(tx, {
      email,
      firstName: input.firstName,
      lastName: input.lastName,
      username: input.username ?? null,
      homeOrgId: access.org.id,
      roleId: input.roleId,
      passwordHash: null,
    });
    await setUserJobDescriptors(tx, created.id, jobDescriptorIds);
    await recordActivity(tx, {
      orgId: access.org.id,
      actorUserId: access.user.id,
      action: 'user.created',
      targetType: 'user',
      targetId: created.id,
      details: { after: { ...userSnapshot(created, email), jobDescriptorIds } },
      ip: origin.ip,
    });
    return { user: created, link: await createPasswordLink({ ...deps, db: tx }, created.id, 'new-user') };
  });

  await deps.sendMail({
    to: email,
    subject: 'Your Vigil account',
    text: [
      `Hello ${user.firstName},`,
      '',
      `An account has been created for you in Vigil for ${access.org.name}. To choose your password, open this link within 24 hours:`,
      '',
      `${origin.publicUrl}/new-user?id=${link.id}&confirmation=${link.secret}`,
      '',
      `You sign in with this e-mail address: ${email}`,
    ].join('\n'),
  });
  return toUser((await findOrgUserListRow(db, access.org.id, user.id, false))!);
}
