import { dictionary } from '@zxcvbn-ts/language-common';

// The common-password list of zxcvbn-ts (about 49,000 entries, from breach corpora), held offline.
const COMMON_PASSWORDS = new Set(dictionary['passwords-common'].map((entry) => String(entry).toLowerCase()));

/** A known common or breached password: worth a warning, not a refusal. */
export const isCommonPassword = (password: string) => COMMON_PASSWORDS.has(password.toLowerCase());
