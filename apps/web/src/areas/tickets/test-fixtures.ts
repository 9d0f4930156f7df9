import type { Ticket } from '@vigil/contracts';

/** Fixtures of the tickets area's component tests. */

export const ticket = (overrides: Partial<Ticket> = {}): Ticket => ({
  id: 'i1',
  kind: 'incident',
  slug: 'INC-7',
  title: 'Phishing wave',
  state: 'TRIAGE',
  description: 'Mails from a look-alike domain',
  ownerId: null,
  ownerName: null,
  resolution: null,
  summaryNote: '',
  dueDate: null,
  slaDate: null,
  externalId: null,
  parentId: null,
  version: 3,
  createdBy: null,
  createdOn: '2026-03-01T09:00:00.000Z',
  modifiedOn: '2026-03-01T09:00:00.000Z',
  ...overrides,
});
