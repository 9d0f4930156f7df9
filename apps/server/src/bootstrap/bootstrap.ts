import { sql } from 'drizzle-orm';
import { PRODUCT_SKUS } from '@vigil/contracts';
import type { Db } from '../db/client';
import { seedDemoData, type DemoSummary } from '../demo';
import { findProviderOrg, insertOrg } from '../modules/orgs/repo';
import { ensureSystemRoles } from '../modules/roles/repo';
import { insertUser } from '../modules/users/repo';
import { recordActivity } from '../platform/audit/audit';
import { generatePassword, hashPassword } from '../platform/passwords';
import type { SecretBox } from '../platform/crypto';

export const PROVIDER_ORG_NAME = 'Vigil Managed Security';
/** Serialises first starts of several processes on one empty database. */
const BOOTSTRAP_LOCK_KEY = 742_002;

export interface BootstrapOptions {
  adminEmail: string;
  adminPassword?: string;
  demoData: boolean;
  demoPassword?: string;
  /** Passed to the demo data: its S3 log source is collected only when an endpoint is configured. */
  s3Endpoint?: string;
  /** Seals the demo action integration's client secret; without it the demo has none. */
  secrets?: SecretBox;
}

export interface BootstrapResult {
  /** False when the database was already set up: nothing was written. */
  created: boolean;
  adminEmail: string;
  /** Only when it was generated now; it is shown this once. */
  generatedAdminPassword?: string;
  demo?: DemoSummary;
}

/**
 * On an empty database: the shared roles, the provider organisation, its administrator and, unless
 * switched off, the demo data set, all in one transaction so a failed first start leaves nothing.
 */
export async function bootstrap(db: Db, options: BootstrapOptions): Promise<BootstrapResult> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${BOOTSTRAP_LOCK_KEY})`);
    if (await findProviderOrg(tx)) return { created: false, adminEmail: options.adminEmail };

    const roleIds = await ensureSystemRoles(tx);
    const providerOrg = await insertOrg(tx, {
      name: PROVIDER_ORG_NAME,
      isProvider: true,
      productSkus: [...PRODUCT_SKUS],
      managementMode: 'CTS_OPS_MANAGED',
      featureFlags: {
        readonlyToggle: true,
        cyberRiskReadinessDashboard: true,
        defaultRevealDashboards: true,
      },
    });
    const generatedAdminPassword = options.adminPassword ? undefined : generatePassword();
    const admin = await insertUser(tx, {
      email: options.adminEmail,
      firstName: 'Vigil',
      lastName: 'Administrator',
      homeOrgId: providerOrg.id,
      roleId: roleIds.providerAdmin,
      passwordHash: await hashPassword(options.adminPassword ?? generatedAdminPassword!),
    });
    await recordActivity(tx, {
      orgId: providerOrg.id,
      action: 'system.bootstrapped',
      targetType: 'user',
      targetId: admin.id,
      details: { adminEmail: options.adminEmail },
    });

    const demo = options.demoData
      ? await seedDemoData(tx, {
          providerOrg: { id: providerOrg.id, name: providerOrg.name },
          adminUserId: admin.id,
          roleIds,
          password: options.demoPassword,
          s3Endpoint: options.s3Endpoint,
          secrets: options.secrets,
        })
      : undefined;
    return { created: true, adminEmail: options.adminEmail, generatedAdminPassword, demo };
  });
}
