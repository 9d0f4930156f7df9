import { execFile } from 'node:child_process';
import type { Event } from '@vigil/contracts';
import { expect } from 'vitest';
import { browserHeaders, type TestContext } from './app';
import type { SeededUser } from './fixtures';

/** Events of the last day matching `query`, as the search API answers them to `user`. */
export async function searchEvents(ctx: TestContext, user: SeededUser, orgId: string, query: string) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: `/api/org/${orgId}/search`,
    headers: browserHeaders(user.cookie),
    payload: { query, intervalType: '24H', pageSize: 100, sortOrder: 'ASC' },
  });
  expect(response.statusCode).toBe(200);
  return (response.json() as { items: Event[] }).items;
}

/**
 * Polls the search API until `count` events match `query` (shippers deliver on their own schedule),
 * for at most `timeoutMs`; answers the events found last, so a shortfall shows in the assertion.
 */
export async function waitForEvents(
  ctx: TestContext,
  user: SeededUser,
  orgId: string,
  query: string,
  count: number,
  timeoutMs = 30_000,
): Promise<Event[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const items = await searchEvents(ctx, user, orgId, query);
    if (items.length >= count || Date.now() > until) return items;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Runs a program to its end; rejects with its output when it fails. */
export function run(program: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(program, args, { timeout: 30_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${program} ${args.join(' ')} failed: ${error.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}
