import {
  ASSET_IMPORTANCES,
  ASSET_UPLOAD_COLUMNS,
  ASSET_UPLOAD_LINE_ERRORS,
  BANNER_TYPES,
  ERROR_KEYS,
  FEATURE_FLAGS,
  IP_MAC_PAIR_ERRORS,
  MANAGEMENT_MODES,
  NAV_ENTRY_IDS,
  PRODUCT_SKUS,
  SECTION_IDS,
  SECTION_TABS,
  TIMEZONES,
} from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import en from './en.json';
import source from './en.json?raw';

const catalogue: Record<string, unknown> = en;

/** Keys that spec 1 section 8 names. */
const SPEC_KEYS = [
  'LOGIN_FAILED',
  'ERROR_VALIDATING_USERNAME',
  'ERROR_SENDING_FORGOT_PASSWORD_EMAIL',
  'ERROR_LOGGING_IN_TO_KNOWLEDGE_BASE',
  'ERROR_LOADING_ORG_METADATA',
  'PASSWORD_CHANGE_FAILED',
  'PASSWORD_RESET_PARAMS_MISSING',
  'QR_CODE_GENERATION_ERROR',
  'ERROR_SETTING_UP_TWO_FACTOR',
  'INVALID_TOTP',
  'ERROR_LOADING_INFO_BANNERS',
  'ERROR_LOADING_INFO_NOTES',
  'ERROR_ADDING_INFO_NOTE',
  'ERROR_EDITING_INFO_NOTE',
  'ERROR_DELETING_INFO_NOTE',
  'ERROR_EDITING_ORG_METADATA',
  'ORG_SETTINGS_LOAD_FAILED',
  'ERROR_RATING_THREAT_SIGNATURE',
  'ERROR_RATING_THREAT_HOST',
  'ERROR_UNRATING_THREAT_SIGNATURE',
  'ERROR_UNRATING_THREAT_HOST',
  'AD_BLOCK_NOTIFICATION',
  'FORGOT_EMAIL_SENT',
  'PASSWORD_BEEN_RESET',
  'TOTP_SUCCESSFUL_SETUP',
  'ERROR_REQUIRED',
  'PASSWORDS_MUST_MATCH',
  'PASSWORDS_MUST_VALIDATE_LENGTH',
  // Spec 2 section 8.
  'ERROR_LOADING_SOFTWARE',
  'ERROR_SAVING_ASSET',
  'ERROR_LOADING_ASSET_LABELS',
];

describe('English catalogue', () => {
  it.each([...ERROR_KEYS])('has a sentence for server error key %s', (key) => {
    expect(catalogue[key]).toEqual(expect.stringMatching(/\S/));
  });

  it.each(SPEC_KEYS)('has a sentence for spec key %s', (key) => {
    expect(catalogue[key]).toEqual(expect.stringMatching(/\S/));
  });

  /** Texts looked up by a name from the contracts. */
  const NAMED_TEXTS: [string, readonly string[]][] = [
    ['nav.entries', NAV_ENTRY_IDS],
    ['nav.sections', SECTION_IDS],
    ['nav.tabs', Object.values(SECTION_TABS).flatMap((tabs) => tabs.map((tab) => tab.id))],
    ['featureFlags', FEATURE_FLAGS],
    ['productSkus', PRODUCT_SKUS],
    ['managementModes', MANAGEMENT_MODES],
    ['timezones', TIMEZONES],
    ['settings.banners.types', BANNER_TYPES],
    ['assets.importance', ASSET_IMPORTANCES],
    ['assets.errors', IP_MAC_PAIR_ERRORS],
    ['assets.upload.columns', ASSET_UPLOAD_COLUMNS],
    ['assets.upload.errors', ASSET_UPLOAD_LINE_ERRORS],
  ];

  it.each(NAMED_TEXTS)('names every one of %s', (group, names) => {
    const texts = group
      .split('.')
      .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], en);
    for (const name of names)
      expect((texts as Record<string, unknown>)[name]).toEqual(expect.stringMatching(/\S/));
  });

  it('names each key once per object, so no text silently replaces another', () => {
    const repeated: string[] = [];
    const objects: Set<string>[] = [];
    // Strings are read whole, so braces inside texts ({{count}}) do not count as objects.
    for (const [token, text, colon] of source.matchAll(/"((?:[^"\\]|\\.)*)"(\s*:)?|[{}]/g)) {
      if (token === '{') objects.push(new Set());
      else if (token === '}') objects.pop();
      else if (colon) {
        const keys = objects.at(-1)!;
        if (keys.has(text!)) repeated.push(text!);
        keys.add(text!);
      }
    }
    expect(repeated).toEqual([]);
  });
});
