import { describe, expect, it } from 'vitest';
import { FEATURE_FLAG_DEFAULTS, hasSkuGate, resolveFeatureFlags } from './orgs';

describe('feature flags', () => {
  it('start from the spec defaults', () => {
    const flags = resolveFeatureFlags({});
    for (const on of [
      'infoPanel',
      'escalationPage',
      'classifierLibrary',
      'jobDescriptors',
      'bulkTicketCsv',
    ] as const) {
      expect(flags[on]).toBe(true);
    }
    for (const off of ['universalTicketInbox', 'csmInformation', 'dsQueryAssistant', 'entraId'] as const) {
      expect(flags[off]).toBe(false);
    }
  });

  it('apply stored values, then switch on what the feature query parameter names', () => {
    const flags = resolveFeatureFlags(
      { infoPanel: false, csmInformation: true },
      'universalTicketInbox,bogus',
    );
    expect(flags.infoPanel).toBe(false);
    expect(flags.csmInformation).toBe(true);
    expect(flags.universalTicketInbox).toBe(true);
    expect(Object.keys(flags).sort()).toEqual(Object.keys(FEATURE_FLAG_DEFAULTS).sort());
  });
});

describe('SKU gates', () => {
  it('open fraud with either fraud SKU and nothing else', () => {
    expect(hasSkuGate(['CYBERFRAUD_STANDARD'], 'fraud')).toBe(true);
    expect(hasSkuGate(['CYBERFRAUD_PREMIUM'], 'fraud')).toBe(true);
    expect(hasSkuGate(['RISK_THIRD_PARTY_RISK', 'CUSTOM_PARSERS'], 'fraud')).toBe(false);
  });
});
