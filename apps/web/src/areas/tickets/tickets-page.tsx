import { Button, EmptyState, Group, Stack } from '@mantine/core';
import { IconDownload, IconPlus, IconTicket } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE, type TicketKind } from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetchFile } from '../../lib/api';
import { saveBlob } from '../../lib/download';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { GatedPage } from '../../shell/gated-page';
import { ListPager } from '../../shell/list-pager';
import { ListStates } from '../../shell/query-status';
import { orgPath } from '../assets/queries';
import { CreateTicketDialog } from './create-ticket-dialog';
import {
  TicketFilterTabs,
  TicketKindSwitch,
  TicketSearchInput,
  TicketTable,
  useTicketListControls,
} from './ticket-list-controls';
import { TICKET_LIST_PATH, ticketSearchParams, ticketsQuery } from './tickets';

export const VIEW_PERMISSION = { incident: 'INCIDENT_VIEW', task: 'TASK_VIEW' } as const;
export const EDIT_PERMISSION = { incident: 'INCIDENT_EDIT', task: 'TASK_EDIT' } as const;

/** Incidents (/tickets/incident, INCIDENT_VIEW) or tasks (/tickets/task, TASK_VIEW). */
export function TicketsPage({ kind }: { kind: TicketKind }) {
  const { t } = useTranslation();
  const allowed = useHasPermission(VIEW_PERMISSION[kind]);
  return (
    <GatedPage title={t(`tickets.${kind}.title`)} allowed={allowed} maw={1400}>
      <TicketList kind={kind} />
    </GatedPage>
  );
}

function TicketList({ kind }: { kind: TicketKind }) {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canEdit = useHasPermission(EDIT_PERMISSION[kind]);
  const controls = useTicketListControls();
  const { filter, q, sort, pageNumber, setPageNumber } = controls;
  const [creating, setCreating] = useState(false);
  const list = useQuery(
    ticketsQuery(orgId, kind, { filter, q, ...sort, pageNumber, pageSize: DEFAULT_PAGE_SIZE }),
  );
  const download = useMutation({
    mutationFn: async () => {
      const search = ticketSearchParams({ filter, q, ...sort });
      const blob = await apiFetchFile(`${orgPath(orgId)}/${TICKET_LIST_PATH[kind]}-csv?${search.toString()}`);
      saveBlob(blob, `${TICKET_LIST_PATH[kind]}.csv`);
    },
    meta: { errorKey: 'tickets.downloadFailed' },
  });
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end">
          <TicketKindSwitch kind={kind} />
          <TicketSearchInput controls={controls} />
        </Group>
        <Group>
          <Button
            variant="default"
            leftSection={<IconDownload size={16} />}
            loading={download.isPending}
            onClick={() => download.mutate()}
          >
            {t('tickets.download')}
          </Button>
          {canEdit && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
              {t(`tickets.${kind}.new`)}
            </Button>
          )}
        </Group>
      </Group>
      <TicketFilterTabs controls={controls} />
      <ListStates
        query={list}
        loadingLabel={t('tickets.loading')}
        failedTitle={t('tickets.loadFailed')}
        empty={
          <EmptyState
            icon={<IconTicket size={32} stroke={1.5} />}
            withIndicatorBackground
            title={t(`tickets.${kind}.emptyTitle`)}
            description={q || filter !== 'all' ? t('tickets.noMatch') : t(`tickets.${kind}.emptyMessage`)}
          />
        }
      >
        {(data) => (
          <>
            <TicketTable items={data.items} controls={controls} />
            <ListPager
              page={pageNumber}
              pageSize={DEFAULT_PAGE_SIZE}
              total={data.total}
              onChange={setPageNumber}
            />
          </>
        )}
      </ListStates>
      {creating && <CreateTicketDialog orgId={orgId} kind={kind} onClose={() => setCreating(false)} />}
    </Stack>
  );
}
