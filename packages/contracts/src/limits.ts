/** Business constants shared by server and web (spec 1 section 9). */
export const NOTIFICATION_DURATION_MS = 10_000;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 4096;
export const SECOND_FACTOR_TIMEOUT_MS = 10 * 60_000;
export const HEARTBEAT_INTERVAL_MS = 10 * 60_000;
export const IDLE_WARNING_MS = 25 * 60_000;
export const IDLE_LOGOUT_MS = 30 * 60_000;
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 500;
