import { IDLE_LOGOUT_MS, IDLE_WARNING_MS } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { idleStateAfter } from './idle';

const minutes = (count: number) => count * 60_000;

describe('idleStateAfter', () => {
  it('says nothing before 25 minutes', () => {
    expect(idleStateAfter(0)).toEqual({ kind: 'active' });
    expect(idleStateAfter(IDLE_WARNING_MS - 1)).toEqual({ kind: 'active' });
  });

  it('warns from 25 minutes with the whole minutes left, rounded up', () => {
    expect(idleStateAfter(IDLE_WARNING_MS)).toEqual({ kind: 'warning', minutesLeft: 5 });
    expect(idleStateAfter(minutes(25) + 1)).toEqual({ kind: 'warning', minutesLeft: 5 });
    expect(idleStateAfter(minutes(28))).toEqual({ kind: 'warning', minutesLeft: 2 });
    expect(idleStateAfter(IDLE_LOGOUT_MS - 1)).toEqual({ kind: 'warning', minutesLeft: 1 });
  });

  it('logs out at 30 minutes', () => {
    expect(idleStateAfter(IDLE_LOGOUT_MS)).toEqual({ kind: 'expired' });
    expect(idleStateAfter(minutes(90))).toEqual({ kind: 'expired' });
  });
});
