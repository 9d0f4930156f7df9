import { classifyThreatSubject, type ThreatIndicatorType } from '@vigil/contracts';
import type { Db } from '../db/client';
import {
  threatIndicators,
  threatRatings,
  threatSources,
  threatSourceSubscriptions,
} from '../modules/threat/tables';

const DAY = 24 * 3600 * 1000;

interface DemoIndicator {
  type: ThreatIndicatorType;
  value: string;
  rating: string;
  severity: string;
  reason: string;
}

/** Values the demo events use (demo/events.ts: EXTERNAL addresses and BLOCKED_SITES), so matches show up. */
const INDICATORS: DemoIndicator[] = [
  {
    type: 'IP',
    value: '203.0.113.0/24',
    rating: 'HIGH',
    severity: 'HIGH',
    reason: 'Botnet command and control',
  },
  {
    type: 'IP',
    value: '198.51.100.66',
    rating: 'MEDIUM',
    severity: 'MEDIUM',
    reason: 'Credential stuffing source',
  },
  { type: 'DOMAIN', value: 'free-prizes.example', rating: 'HIGH', severity: 'HIGH', reason: 'Phishing lure' },
  {
    type: 'DOMAIN',
    value: 'crypto-miner.example',
    rating: 'MEDIUM',
    severity: 'MEDIUM',
    reason: 'Cryptojacking',
  },
  {
    type: 'URL',
    value: 'https://pastebin.example/',
    rating: 'LOW',
    severity: 'LOW',
    reason: 'Data exfiltration drop',
  },
  {
    type: 'HASH',
    value: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    rating: 'HIGH',
    severity: 'CRITICAL',
    reason: 'Ransomware loader',
  },
  {
    type: 'EMAIL',
    value: 'billing@free-prizes.example',
    rating: 'HIGH',
    severity: 'HIGH',
    reason: 'Invoice fraud sender',
  },
];

/** Ratings First Harbor Bank has given. */
const RATINGS: { subject: string; rating: string; ignored?: boolean }[] = [
  { subject: 'crypto-miner.example', rating: 'HIGH' },
  { subject: 'pastebin.example', rating: 'MEDIUM' },
  { subject: 'da39a3ee5e6b4b0d3255bfef95601890afd80709', rating: 'HARMLESS', ignored: true },
];

/**
 * The provider's "Vigil Threat Intel" source, subscribed by every demo bank, with indicators that
 * the demo events meet, and a few threat ratings of First Harbor Bank.
 */
export async function seedThreatDemo(db: Db, bankOrgIds: string[], harborOrgId: string, ratedBy: string) {
  const now = Date.now();
  const [source] = await db
    .insert(threatSources)
    .values({
      orgId: null,
      domain: 'security',
      name: 'Vigil Threat Intel',
      description: 'Indicators curated by the Vigil security operations centre.',
      url: 'https://intel.vigil.example/feed',
      type: 'COMMERCIAL',
    })
    .returning();
  await db
    .insert(threatSourceSubscriptions)
    .values(bankOrgIds.map((orgId) => ({ orgId, sourceId: source!.id })));
  await db.insert(threatIndicators).values(
    INDICATORS.map((indicator) => ({
      ...indicator,
      sourceId: source!.id,
      validFrom: new Date(now - 30 * DAY),
      expiresAt: new Date(now + 365 * DAY),
    })),
  );
  await db.insert(threatRatings).values(
    RATINGS.map(({ subject, rating, ignored = false }) => {
      const classified = classifyThreatSubject(subject);
      return {
        orgId: harborOrgId,
        subjectType: classified.type,
        subject: classified.subject,
        signatureType: classified.signatureType,
        rating,
        ratedBy,
        ignored,
      };
    }),
  );
}
