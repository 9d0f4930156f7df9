import { and, eq, sql } from 'drizzle-orm';
import { DEFAULT_PREFERENCES, preferencesSchema, type Preferences } from '@vigil/contracts';
import type { Db } from '../../db/client';
import { userPreferences } from './tables';

/** Stored values over the defaults; a value that no longer fits its schema falls back to the default. */
function withDefaults(stored: Record<string, unknown>): Preferences {
  const merged: Record<string, unknown> = { ...DEFAULT_PREFERENCES };
  for (const [key, value] of Object.entries(stored)) {
    const field = preferencesSchema.shape[key as keyof Preferences];
    if (field?.safeParse(value).success) merged[key] = value;
  }
  return merged as Preferences;
}

export async function getPreferences(db: Db, userId: string, orgId: string): Promise<Preferences> {
  const [row] = await db
    .select({ preferences: userPreferences.preferences })
    .from(userPreferences)
    .where(and(eq(userPreferences.userId, userId), eq(userPreferences.orgId, orgId)))
    .limit(1);
  return withDefaults(row?.preferences ?? {});
}

/** Merges a validated patch into the stored preferences in one statement. */
export async function patchPreferences(
  db: Db,
  userId: string,
  orgId: string,
  patch: Partial<Preferences>,
): Promise<Preferences> {
  const [row] = await db
    .insert(userPreferences)
    .values({ userId, orgId, preferences: patch })
    .onConflictDoUpdate({
      target: [userPreferences.userId, userPreferences.orgId],
      set: {
        preferences: sql`${userPreferences.preferences} || excluded.preferences`,
        updatedAt: new Date(),
      },
    })
    .returning({ preferences: userPreferences.preferences });
  return withDefaults(row!.preferences);
}
