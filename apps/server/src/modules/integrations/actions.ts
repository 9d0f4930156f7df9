import {
  ACTION_MAX_FIELDS,
  ACTION_TYPE_PROVIDERS,
  SYMXCHANGE_WARNING_CODE_MAX,
  SYMXCHANGE_WARNING_CODE_MIN,
  isWellFormedUrl,
  resolveFeatureFlags,
  type Action,
  type ActionInput,
  type ActionIntegration,
  type ActionIntegrationInput,
  type ActionMultipleValues,
  type ActionProvider,
  type ActionType,
  type PendingAction,
  type PendingActionState,
} from '@vigil/contracts';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { JobRunner } from '../../platform/jobs';
import { selectEvents } from '../events/repo';
import { findOrg } from '../orgs/repo';
import { resolveSort, toEvent } from '../events/service';
import { recordActivity } from '../../platform/audit/audit';
import type { SecretBox } from '../../platform/crypto';
import { AppError, conflict, validationFailed } from '../../platform/errors';
import { callProvider } from './action-adapters';
import {
  claimQueuedAction,
  deleteAction,
  deleteActionIntegration,
  findAction,
  findActionIntegration,
  findActionIntegrationOf,
  findPendingAction,
  insertAction,
  insertActionIntegration,
  insertPendingAction,
  listActionIntegrations,
  listActions,
  updateAction,
  updateActionIntegration,
  updatePendingAction,
  type ActionIntegrationRow,
  type ActionRow,
  type PendingActionRow,
} from './action-repo';
import type { Actor } from './service';

const iso = (value: Date | null) => (value ? value.toISOString() : null);
const notFound = (key: 'ACTION_INTEGRATION_NOT_FOUND' | 'ACTION_NOT_FOUND' | 'PENDING_ACTION_NOT_FOUND') =>
  new AppError('NotFoundException', key, 'Not found');

const actionIntegrationJson = (row: ActionIntegrationRow): ActionIntegration => ({
  id: row.id,
  provider: row.provider as ActionProvider,
  apiBaseUrl: row.apiBaseUrl,
  authBaseUrl: row.authBaseUrl,
  clientId: row.clientId,
  clientSecretSet: row.clientSecretEncrypted !== '',
  createdOn: row.createdOn.toISOString(),
});

const actionJson = (row: ActionRow): Action => ({
  id: row.id,
  name: row.name,
  type: row.type as ActionType,
  provider: row.provider as ActionProvider,
  fields: row.fields,
  multipleValues: row.multipleValues as ActionMultipleValues,
  warningCode: row.warningCode,
  createdOn: row.createdOn.toISOString(),
});

export const pendingActionJson = (row: PendingActionRow): PendingAction => ({
  id: row.id,
  actionId: row.actionId,
  actionName: row.actionName,
  provider: row.provider as ActionProvider,
  type: row.type as ActionType,
  value: row.value,
  triggerId: row.triggerId,
  alertId: row.alertId,
  state: row.state as PendingActionState,
  request: row.request,
  response: row.response,
  error: row.error,
  executedAt: iso(row.executedAt),
  revertedAt: iso(row.revertedAt),
  createdOn: row.createdOn.toISOString(),
});

function checkUrls(input: ActionIntegrationInput) {
  for (const field of ['apiBaseUrl', 'authBaseUrl'] as const) {
    if (!isWellFormedUrl(input[field])) {
      throw validationFailed('INVALID_BASE_URL', `${field} is not a valid base URL`, {
        field,
        params: { value: input[field] },
      });
    }
  }
}

async function audit(
  db: Db,
  actor: Actor,
  action: string,
  targetId: string,
  details: Record<string, unknown>,
) {
  await recordActivity(db, {
    orgId: actor.orgId,
    actorUserId: actor.userId,
    action,
    targetType: 'action-integration',
    targetId,
    details,
    ip: actor.ip,
  });
}

export async function listActionIntegrationsOf(db: Db, orgId: string) {
  return (await listActionIntegrations(db, orgId)).map(actionIntegrationJson);
}

export async function createActionIntegration(
  db: Db,
  secrets: SecretBox,
  actor: Actor,
  input: ActionIntegrationInput,
): Promise<ActionIntegration> {
  checkUrls(input);
  if (!input.clientSecret) {
    throw validationFailed('GENERIC_REQUIRED_FIELD', 'The client secret is required', {
      field: 'clientSecret',
      params: { field: 'clientSecret' },
    });
  }
  if (await findActionIntegrationOf(db, actor.orgId, input.provider)) {
    throw conflict('ACTION_INTEGRATION_EXISTS', 'The provider has an integration', {
      field: 'provider',
      params: { provider: input.provider },
    });
  }
  return db.transaction(async (tx) => {
    const row = await insertActionIntegration(tx, actor.orgId, {
      provider: input.provider,
      apiBaseUrl: input.apiBaseUrl,
      authBaseUrl: input.authBaseUrl,
      clientId: input.clientId,
      clientSecretEncrypted: secrets.seal(input.clientSecret!),
    });
    await audit(tx, actor, 'action-integration.created', row.id, { provider: row.provider });
    return actionIntegrationJson(row);
  });
}

export async function updateActionIntegrationOf(
  db: Db,
  secrets: SecretBox,
  actor: Actor,
  id: string,
  input: ActionIntegrationInput,
): Promise<ActionIntegration> {
  const existing = await findActionIntegration(db, actor.orgId, id);
  if (!existing) throw notFound('ACTION_INTEGRATION_NOT_FOUND');
  checkUrls(input);
  const other = await findActionIntegrationOf(db, actor.orgId, input.provider);
  if (other && other.id !== id) {
    throw conflict('ACTION_INTEGRATION_EXISTS', 'The provider has an integration', {
      field: 'provider',
      params: { provider: input.provider },
    });
  }
  return db.transaction(async (tx) => {
    const row = (await updateActionIntegration(tx, actor.orgId, id, {
      provider: input.provider,
      apiBaseUrl: input.apiBaseUrl,
      authBaseUrl: input.authBaseUrl,
      clientId: input.clientId,
      ...(input.clientSecret && { clientSecretEncrypted: secrets.seal(input.clientSecret) }),
    }))!;
    await audit(tx, actor, 'action-integration.updated', id, { secretReplaced: Boolean(input.clientSecret) });
    return actionIntegrationJson(row);
  });
}

export async function deleteActionIntegrationOf(db: Db, actor: Actor, id: string) {
  await db.transaction(async (tx) => {
    const row = await deleteActionIntegration(tx, actor.orgId, id);
    if (!row) throw notFound('ACTION_INTEGRATION_NOT_FOUND');
    await audit(tx, actor, 'action-integration.deleted', id, { provider: row.provider });
  });
}

function checkAction(input: ActionInput) {
  if (input.fields.length > ACTION_MAX_FIELDS) {
    throw validationFailed('ACTION_MAX_FIELDS_REACHED', 'Too many action fields', {
      field: 'fields',
      params: { max: ACTION_MAX_FIELDS },
    });
  }
  if (!ACTION_TYPE_PROVIDERS[input.type].includes(input.provider)) {
    throw validationFailed('ACTION_PROVIDER_MISMATCH', 'The provider does not offer this action', {
      field: 'provider',
      params: { provider: input.provider },
      validValues: [...ACTION_TYPE_PROVIDERS[input.type]],
    });
  }
  const code = input.warningCode;
  if (
    input.type === 'ADD_WARNING_CODE' &&
    (code == null || code < SYMXCHANGE_WARNING_CODE_MIN || code > SYMXCHANGE_WARNING_CODE_MAX)
  ) {
    throw validationFailed('SYMXCHANGE_INVALID_WARNING_CODE', 'A warning code is 1 to 999', {
      field: 'warningCode',
    });
  }
}

const actionValues = (input: ActionInput) => ({
  name: input.name,
  type: input.type,
  provider: input.provider,
  fields: [...new Set(input.fields)],
  multipleValues: input.multipleValues ?? 'SEND_ALL',
  warningCode: input.type === 'ADD_WARNING_CODE' ? (input.warningCode ?? null) : null,
});

export async function listActionsOf(db: Db, orgId: string) {
  return (await listActions(db, orgId)).map(actionJson);
}

export async function createAction(db: Db, actor: Actor, input: ActionInput): Promise<Action> {
  checkAction(input);
  return db.transaction(async (tx) => {
    const row = await insertAction(tx, actor.orgId, actionValues(input));
    await audit(tx, actor, 'action.created', row.id, actionValues(input));
    return actionJson(row);
  });
}

export async function updateActionOf(db: Db, actor: Actor, id: string, input: ActionInput): Promise<Action> {
  if (!(await findAction(db, actor.orgId, id))) throw notFound('ACTION_NOT_FOUND');
  checkAction(input);
  return db.transaction(async (tx) => {
    const row = (await updateAction(tx, actor.orgId, id, actionValues(input)))!;
    await audit(tx, actor, 'action.updated', id, actionValues(input));
    return actionJson(row);
  });
}

export async function deleteActionOf(db: Db, actor: Actor, id: string) {
  await db.transaction(async (tx) => {
    const row = await deleteAction(tx, actor.orgId, id);
    if (!row) throw notFound('ACTION_NOT_FOUND');
    await audit(tx, actor, 'action.deleted', id, { name: row.name });
  });
}

/** The values an event holds in the action's fields (top-level or dotted paths into `fields`), in order. */
export function valuesFromEvent(fields: readonly string[], event: Record<string, unknown>): string[] {
  const found: string[] = [];
  for (const field of fields) {
    let value: unknown = event;
    for (const part of field.split('.')) {
      value =
        value !== null && typeof value === 'object' && Object.hasOwn(value, part)
          ? (value as Record<string, unknown>)[part]
          : undefined;
    }
    for (const item of Array.isArray(value) ? value : [value]) {
      if ((typeof item === 'string' && item.trim() !== '') || typeof item === 'number')
        found.push(String(item).trim());
    }
  }
  return [...new Set(found)];
}

/** The values one run acts on, by the action's multiple-values handling. */
export function valuesToSend(values: readonly string[], handling: ActionMultipleValues): string[] {
  if (values.length <= 1 || handling === 'SEND_ALL') return [...values];
  return handling === 'SEND_FIRST' ? values.slice(0, 1) : [];
}

/** The organisation's integration for the provider, with its secret; 'contact support' when there is none. */
async function connectionOf(db: Db, secrets: SecretBox, orgId: string, provider: ActionProvider) {
  const row = await findActionIntegrationOf(db, orgId, provider);
  if (!row) {
    const key =
      provider === 'SYMXCHANGE'
        ? 'SYMXCHANGE_INTEGRATION_MISSING'
        : provider === 'APITURE'
          ? 'APITURE_ADB_INTEGRATION_MISSING'
          : 'ACTION_INTEGRATION_MISSING';
    throw validationFailed(key, `No ${provider} integration: contact support`, { params: { provider } });
  }
  return { ...row, provider, clientSecret: secrets.open(row.clientSecretEncrypted) };
}

/** The stored events of an alert, with their fields, for the values its actions act on. */
async function eventsOf(db: Db, orgId: string, stored: RaisedAlert['events']) {
  if (stored.length === 0) return [];
  const times = stored.map((event) => new Date(event.ts).getTime());
  const rows = await selectEvents(
    db,
    {
      orgId,
      begin: new Date(Math.min(...times)),
      end: new Date(Math.max(...times)),
      condition: sql`id = ANY(${sql.param(stored.map((event) => event.id))}::uuid[])`,
    },
    resolveSort('timestamp', 'asc'),
    { limit: stored.length, offset: 0 },
  );
  return rows.map((row) => ({ ...toEvent(row) }) as Record<string, unknown>);
}

const failureOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Calls the provider for a pending action and records EXECUTED with the exchange, or FAILED with why. */
async function execute(
  db: Db,
  orgId: string,
  connection: Awaited<ReturnType<typeof connectionOf>>,
  pending: PendingActionRow,
): Promise<PendingActionRow> {
  try {
    const exchange = await callProvider(
      connection,
      { type: pending.type as ActionType, value: pending.value, warningCode: pending.warningCode },
      false,
    );
    return (await updatePendingAction(db, orgId, pending.id, {
      state: 'EXECUTED',
      executedAt: new Date(),
      error: null,
      ...exchange,
    }))!;
  } catch (error) {
    return (await updatePendingAction(db, orgId, pending.id, { state: 'FAILED', error: failureOf(error) }))!;
  }
}

const pendingValues = (action: ActionRow) => ({
  actionId: action.id,
  actionName: action.name,
  provider: action.provider,
  type: action.type,
  warningCode: action.warningCode,
});

/**
 * Runs an action: each value (by the multiple-values handling) becomes a pending action that is
 * executed at once, one at a time, and recorded with its request and response, or FAILED with why.
 */
export async function runAction(
  db: Db,
  secrets: SecretBox,
  actor: Actor,
  actionId: string,
  input: { values?: string[]; event?: Record<string, unknown> },
): Promise<PendingAction[]> {
  const action = await findAction(db, actor.orgId, actionId);
  if (!action) throw notFound('ACTION_NOT_FOUND');
  const connection = await connectionOf(db, secrets, actor.orgId, action.provider as ActionProvider);
  const all = input.values ? [...new Set(input.values)] : valuesFromEvent(action.fields, input.event ?? {});
  const results: PendingAction[] = [];
  for (const value of valuesToSend(all, action.multipleValues as ActionMultipleValues)) {
    const pending = await insertPendingAction(db, actor.orgId, {
      ...pendingValues(action),
      value,
      state: 'PENDING',
      createdBy: actor.userId,
    });
    const row = await execute(db, actor.orgId, connection, pending);
    await audit(db, actor, 'action.executed', row.id, { action: action.name, value, state: row.state });
    results.push(pendingActionJson(row));
  }
  return results;
}

/** 400 TRIGGER_INVALID_ACTION unless every id is an action of the organisation. */
export async function checkActionIds(db: Db, orgId: string, ids: readonly string[]): Promise<string[]> {
  const distinct = [...new Set(ids)];
  const known = new Set((await listActions(db, orgId)).map((action) => action.id));
  const unknown = distinct.find((id) => !known.has(id));
  if (unknown) {
    throw validationFailed('TRIGGER_INVALID_ACTION', 'Actions must be actions of the organisation', {
      field: 'actionIds',
      params: { value: unknown },
    });
  }
  return distinct;
}

/** An alert a trigger run raised: its id when stored (not for notify-only triggers) and its events. */
export interface RaisedAlert {
  alertId: string | null;
  events: { id: string; ts: string }[];
}

/**
 * Queues a trigger's actions for the alerts a run raised, in the run's transaction: for each alert
 * and action, the values its events hold in the action's fields (by the multiple-values handling)
 * become PENDING pending actions, executed afterwards by `runQueuedActions`. An alert whose events
 * hold no value to send is recorded FAILED with why; actions deleted since are answered in `missing`.
 * Nothing is queued while the organisation's automatedIntervention feature is off (`featureOff`).
 */
export async function queueAlertActions(
  db: Db,
  orgId: string,
  triggerId: string,
  actionIds: readonly string[],
  raised: readonly RaisedAlert[],
): Promise<{ queued: number; missing: string[]; featureOff?: true }> {
  const org = await findOrg(db, orgId);
  if (!org || !resolveFeatureFlags(org.featureFlags).automatedIntervention)
    return { queued: 0, missing: [], featureOff: true };
  const known = new Map((await listActions(db, orgId)).map((action) => [action.id, action]));
  const rows: Parameters<typeof insertPendingAction>[2][] = [];
  const missing = new Set<string>();
  for (const alert of raised) {
    const events = await eventsOf(db, orgId, alert.events);
    for (const actionId of actionIds) {
      const action = known.get(actionId);
      const base = { triggerId, alertId: alert.alertId };
      if (!action) {
        missing.add(actionId);
        continue;
      }
      const all = [...new Set(events.flatMap((event) => valuesFromEvent(action.fields, event)))];
      const values = valuesToSend(all, action.multipleValues as ActionMultipleValues);
      if (values.length === 0) {
        rows.push({
          ...base,
          ...pendingValues(action),
          value: all.join(', '),
          state: 'FAILED',
          error:
            all.length === 0
              ? `The alert's events hold no value in ${action.fields.join(', ')}`
              : `The alert's events hold ${all.length} values and the action sends none when there are several`,
        });
        continue;
      }
      for (const value of values) rows.push({ ...base, ...pendingValues(action), value, state: 'PENDING' });
    }
  }
  for (const row of rows) await insertPendingAction(db, orgId, row);
  return { queued: rows.filter((row) => row.state === 'PENDING').length, missing: [...missing] };
}

/**
 * Executes queued pending actions, oldest first: each is claimed (RUNNING) before its provider call,
 * so that two executors never send it twice, and ends EXECUTED or FAILED with its request and
 * response. A missing integration fails it with the 'contact support' message.
 */
export async function runQueuedActions(db: Db, secrets: SecretBox, limit = 500): Promise<number> {
  let done = 0;
  while (done < limit) {
    const pending = await claimQueuedAction(db);
    if (!pending) break;
    done++;
    let row: PendingActionRow;
    try {
      const connection = await connectionOf(db, secrets, pending.orgId, pending.provider as ActionProvider);
      row = await execute(db, pending.orgId, connection, pending);
    } catch (error) {
      row = (await updatePendingAction(db, pending.orgId, pending.id, {
        state: 'FAILED',
        error: failureOf(error),
      }))!;
    }
    await recordActivity(db, {
      orgId: pending.orgId,
      action: 'action.executed',
      targetType: 'action-integration',
      targetId: row.id,
      details: { action: row.actionName, value: row.value, state: row.state, alertId: row.alertId },
    });
  }
  return done;
}

export const PENDING_ACTIONS_JOB = 'integrations.pending-actions';

/** The `integrations.pending-actions` job: every minute, and sent after a trigger run queues actions. */
export function defineActionJobs(jobs: JobRunner, db: Db, secrets: SecretBox) {
  jobs.define({
    name: PENDING_ACTIONS_JOB,
    cron: '* * * * *',
    retry: { retryLimit: 0 },
    expireInSeconds: 900,
    handler: async () => void (await runQueuedActions(db, secrets)),
  });
}

/**
 * Undoes an EXECUTED pending action with the provider's reverse call; other states are refused. A
 * refused undo leaves it EXECUTED with the error.
 */
export async function undoPendingAction(
  db: Db,
  secrets: SecretBox,
  actor: Actor,
  id: string,
): Promise<PendingAction> {
  const pending = await findPendingAction(db, actor.orgId, id);
  if (!pending) throw notFound('PENDING_ACTION_NOT_FOUND');
  if (pending.state !== 'EXECUTED') {
    throw conflict('PENDING_ACTION_NOT_EXECUTED', 'Only executed actions can be undone', {
      params: { state: pending.state },
    });
  }
  const provider = pending.provider as ActionProvider;
  const connection = await connectionOf(db, secrets, actor.orgId, provider);
  let row: PendingActionRow;
  try {
    const exchange = await callProvider(
      connection,
      { type: pending.type as ActionType, value: pending.value, warningCode: pending.warningCode },
      true,
    );
    row = (await updatePendingAction(db, actor.orgId, id, {
      state: 'REVERTED',
      revertedAt: new Date(),
      response: { ...pending.response, undo: exchange },
    }))!;
  } catch (error) {
    // Still in effect at the provider: it stays EXECUTED, so that undo can be tried again.
    row = (await updatePendingAction(db, actor.orgId, id, { error: failureOf(error) }))!;
  }
  await audit(db, actor, 'action.reverted', id, {
    action: pending.actionName,
    value: pending.value,
    state: row.state,
  });
  return pendingActionJson(row);
}
