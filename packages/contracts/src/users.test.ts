import { describe, expect, it } from 'vitest';
import { contactNumberSchema, roleInputSchema, userListQuerySchema, usernameSchema } from './users';

describe('user contracts', () => {
  it('read list queries with their defaults, booleans as text', () => {
    expect(userListQuerySchema.parse({})).toEqual({
      active: 'ACTIVE',
      pageSize: 25,
      sortBy: 'name',
      desc: false,
    });
    expect(userListQuerySchema.parse({ pageSize: '50', pageId: '2', desc: 'true' })).toMatchObject({
      pageSize: 50,
      pageId: 2,
      desc: true,
    });
    expect(userListQuerySchema.safeParse({ pageNumber: '0' }).success).toBe(false);
    expect(userListQuerySchema.safeParse({ active: 'DELETED' }).success).toBe(false);
  });

  it('accept typed phone numbers and plain usernames only', () => {
    expect(contactNumberSchema.safeParse({ type: 'Emergency', number: '+1 (555) 010-0199' }).success).toBe(
      true,
    );
    expect(contactNumberSchema.safeParse({ type: 'Pager', number: '555' }).success).toBe(false);
    expect(contactNumberSchema.safeParse({ type: 'Main', number: 'call me' }).success).toBe(false);
    expect(usernameSchema.safeParse('ada.lovelace').success).toBe(true);
    expect(usernameSchema.safeParse('ada lovelace').success).toBe(false);
  });

  it('accept catalogue permission codes only in roles', () => {
    expect(roleInputSchema.safeParse({ name: 'Readers', permissions: ['ASSET_VIEW'] }).success).toBe(true);
    expect(roleInputSchema.safeParse({ name: 'Readers', permissions: ['ROOT'] }).success).toBe(false);
  });
});
