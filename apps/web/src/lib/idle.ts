import { IDLE_LOGOUT_MS, IDLE_WARNING_MS } from '@vigil/contracts';

/** Spec 1 section 4.4: activity is sampled once a minute. */
export const IDLE_SAMPLE_MS = 60_000;

const MINUTE_MS = 60_000;

export type IdleState = { kind: 'active' } | { kind: 'warning'; minutesLeft: number } | { kind: 'expired' };

/** What `idleMs` of inactivity means: nothing yet, a warning with the whole minutes left, or logout. */
export function idleStateAfter(idleMs: number): IdleState {
  if (idleMs >= IDLE_LOGOUT_MS) return { kind: 'expired' };
  if (idleMs >= IDLE_WARNING_MS) {
    return { kind: 'warning', minutesLeft: Math.ceil((IDLE_LOGOUT_MS - idleMs) / MINUTE_MS) };
  }
  return { kind: 'active' };
}
