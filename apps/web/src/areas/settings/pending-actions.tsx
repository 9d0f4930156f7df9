import { Badge, Button, Code, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_PAGE_SIZE,
  actionListSchema,
  pendingActionListSchema,
  pendingActionSchema,
  type PendingAction,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch, orgPath } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { ListPager } from '../../shell/list-pager';
import { ListStates } from '../../shell/query-status';
import { useDateTime } from './integration-status';

/** Action integrations, actions and pending actions (spec 3; feature automatedIntervention). */
export const actionIntegrationsKey = (orgId: string) => ['settings', orgId, 'action-integrations'] as const;
const P = 'settings.actionIntegrations';

export const actionsQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...actionIntegrationsKey(orgId), 'actions'] as const,
    queryFn: ({ signal }) => apiFetch(`${orgPath(orgId)}/actions`, { schema: actionListSchema, signal }),
  });
const pendingQuery = (orgId: string, pageNumber: number, alertId?: string) =>
  queryOptions({
    queryKey: [...actionIntegrationsKey(orgId), 'pending', alertId ?? 'all', pageNumber] as const,
    queryFn: ({ signal }) =>
      apiFetch(
        `${orgPath(orgId)}/pending-actions?pageSize=${DEFAULT_PAGE_SIZE}&pageNumber=${pageNumber}` +
          (alertId ? `&alertId=${encodeURIComponent(alertId)}` : ''),
        { schema: pendingActionListSchema, signal },
      ),
    placeholderData: keepPreviousData,
  });

const STATE_COLORS = {
  PENDING: 'blue',
  RUNNING: 'blue',
  EXECUTED: 'green',
  FAILED: 'red',
  REVERTED: 'gray',
} as const;

/**
 * Pending actions, newest first, with undo for executed ones: all of the organisation's, or those a
 * trigger ran for one alert.
 */
export function PendingActions({ alertId }: { alertId?: string }) {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canEdit = useHasPermission('ACTION_EDIT');
  const dateTime = useDateTime();
  const queryClient = useQueryClient();
  const [pageNumber, setPageNumber] = useState(1);
  const [undoing, setUndoing] = useState<PendingAction | null>(null);
  const list = useQuery(pendingQuery(orgId, pageNumber, alertId));
  const undo = useMutation({
    mutationFn: (id: string) =>
      apiFetch(`${orgPath(orgId)}/pending-action/${encodeURIComponent(id)}/undo`, {
        method: 'POST',
        schema: pendingActionSchema,
      }),
    meta: { errorKey: `${P}.undoFailed` },
    onSuccess: async (pending) => {
      setUndoing(null);
      if (pending.state === 'REVERTED') notifyMessage(`${P}.undone`);
      else notifyMessage(`${P}.undoFailed`, 'yellow');
      await queryClient.invalidateQueries({ queryKey: actionIntegrationsKey(orgId) });
    },
  });
  return (
    <Stack gap="sm" component="section" aria-label={t(alertId ? `${P}.pendingForAlert` : `${P}.pending`)}>
      <Title order={alertId ? 3 : 2} size={alertId ? 'h5' : 'h3'}>
        {t(alertId ? `${P}.pendingForAlert` : `${P}.pending`)}
      </Title>
      <ListStates
        query={list}
        loadingLabel={t(`${P}.loading`)}
        failedTitle={t(`${P}.loadFailed`)}
        empty={<Text c="dimmed">{t(alertId ? `${P}.noPendingForAlert` : `${P}.noPending`)}</Text>}
      >
        {(data) => (
          <>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t(`${P}.name`)}</Table.Th>
                  <Table.Th>{t(`${P}.value`)}</Table.Th>
                  <Table.Th>{t(`${P}.state`)}</Table.Th>
                  <Table.Th>{t(`${P}.when`)}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.items.map((pending) => (
                  <Table.Tr key={pending.id}>
                    <Table.Td>
                      {pending.actionName}
                      <Text size="xs" c="dimmed">
                        {t(`${P}.providers.${pending.provider}`)}
                        {!alertId && pending.triggerId && ` · ${t(`${P}.byTrigger`)}`}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Code>{pending.value}</Code>
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={STATE_COLORS[pending.state]}>
                        {t(`${P}.states.${pending.state}`)}
                      </Badge>
                      {pending.error && (
                        <Text size="xs" c="red">
                          {pending.error}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      {dateTime(pending.revertedAt ?? pending.executedAt ?? pending.createdOn)}
                    </Table.Td>
                    <Table.Td>
                      {canEdit && pending.state === 'EXECUTED' && (
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          onClick={() => setUndoing(pending)}
                          aria-label={t(`${P}.undoNamed`, { name: pending.actionName, value: pending.value })}
                        >
                          {t(`${P}.undo`)}
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <ListPager
              page={pageNumber}
              pageSize={DEFAULT_PAGE_SIZE}
              total={data.total}
              onChange={setPageNumber}
              withRange={false}
            />
          </>
        )}
      </ListStates>
      <ConfirmDialog
        opened={undoing !== null}
        title={t(`${P}.undoTitle`)}
        message={t(`${P}.undoMessage`, {
          name: undoing?.actionName ?? '',
          value: undoing?.value ?? '',
          provider: undoing ? t(`${P}.providers.${undoing.provider}`) : '',
        })}
        confirmLabel={t(`${P}.undo`)}
        loading={undo.isPending}
        onConfirm={() => undoing && undo.mutate(undoing.id)}
        onCancel={() => setUndoing(null)}
      />
    </Stack>
  );
}
