import { Button, EmptyState, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconPlus, IconTransform } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createLazyRoute } from '@tanstack/react-router';
import { CUSTOM_PARSERS_MAX_PER_ORG, DEFAULT_PAGE_SIZE, type CustomParser } from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { useHasSku } from '../../lib/org-context';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import { ListPager } from '../../shell/list-pager';
import { ListStates } from '../../shell/query-status';
import { useDateTime } from '../assets/asset-dialog';
import { CustomParserDialog } from './custom-parser-dialog';
import { customParserPath, customParsersKey, customParsersQuery } from './custom-parsers';

export const Route = createLazyRoute('/settings/custom-parsers')({
  component: CustomParsersPage,
});

/** Custom parsers (spec 1): the CUSTOM_PARSERS product and CUSTOM_PARSER_VIEW; CUSTOM_PARSER_EDIT to change. */
function CustomParsersPage() {
  const { t } = useTranslation();
  const canView = useHasPermission('CUSTOM_PARSER_VIEW');
  const entitled = useHasSku('customParsers');
  return (
    <GatedPage title={t('nav.tabs.customParsers')} allowed={canView && entitled} maw={1000}>
      <CustomParserList />
    </GatedPage>
  );
}

function CustomParserList() {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canEdit = useHasPermission('CUSTOM_PARSER_EDIT');
  const dateTime = useDateTime();
  const queryClient = useQueryClient();
  const [pageNumber, setPageNumber] = useState(1);
  // `null` is closed, `'new'` creates, a parser edits it.
  const [editing, setEditing] = useState<CustomParser | 'new' | null>(null);
  const [deleting, setDeleting] = useState<CustomParser | null>(null);
  const list = useQuery(customParsersQuery(orgId, { pageNumber, pageSize: DEFAULT_PAGE_SIZE }));
  const remove = useMutation({
    mutationFn: (id: string) => apiFetch(customParserPath(orgId, id), { method: 'DELETE' }),
    onSuccess: async () => {
      setDeleting(null);
      notifyMessage('settings.customParsers.deleted');
      await queryClient.invalidateQueries({ queryKey: customParsersKey(orgId) });
    },
    meta: { errorKey: 'settings.customParsers.deleteFailed' },
  });
  const full = (list.data?.total ?? 0) >= CUSTOM_PARSERS_MAX_PER_ORG;

  return (
    <Stack gap="md">
      <Group justify="space-between" align="center">
        <Text size="sm" c="dimmed" maw={620}>
          {t('settings.customParsers.intro')}
        </Text>
        {canEdit && (
          <Group gap="sm">
            {full && (
              <Text size="sm" c="dimmed">
                {t('CUSTOM_PARSER_LIMIT_REACHED', { max: CUSTOM_PARSERS_MAX_PER_ORG })}
              </Text>
            )}
            <Button leftSection={<IconPlus size={16} />} disabled={full} onClick={() => setEditing('new')}>
              {t('settings.customParsers.new')}
            </Button>
          </Group>
        )}
      </Group>
      <ListStates
        query={list}
        loadingLabel={t('settings.customParsers.loading')}
        failedTitle={t('settings.customParsers.loadFailed')}
        empty={
          <EmptyState
            icon={<IconTransform size={32} stroke={1.5} />}
            withIndicatorBackground
            title={t('settings.customParsers.emptyTitle')}
            description={t('settings.customParsers.emptyMessage')}
          />
        }
      >
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={600}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('settings.customParsers.dataSource')}</Table.Th>
                    <Table.Th>{t('settings.customParsers.mappingCount')}</Table.Th>
                    <Table.Th>{t('settings.customParsers.modified')}</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((parser) => (
                    <Table.Tr key={parser.id}>
                      <Table.Td>
                        <Text size="sm" fw={500} ff="monospace">
                          {parser.dataSource}
                        </Text>
                      </Table.Td>
                      <Table.Td>{parser.mappings.length}</Table.Td>
                      <Table.Td>{dateTime(parser.modifiedOn)}</Table.Td>
                      <Table.Td>
                        {canEdit && (
                          <Group gap="xs" justify="flex-end" wrap="nowrap">
                            <Button
                              size="compact-sm"
                              variant="subtle"
                              aria-label={t('settings.customParsers.editNamed', { name: parser.dataSource })}
                              onClick={() => setEditing(parser)}
                            >
                              {t('common.edit')}
                            </Button>
                            <Button
                              size="compact-sm"
                              variant="subtle"
                              color="red"
                              aria-label={t('settings.customParsers.deleteNamed', {
                                name: parser.dataSource,
                              })}
                              onClick={() => setDeleting(parser)}
                            >
                              {t('settings.customParsers.delete')}
                            </Button>
                          </Group>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
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
      {editing && (
        <CustomParserDialog
          orgId={orgId}
          parser={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('settings.customParsers.deleteTitle')}
        message={t('settings.customParsers.deleteMessage', { name: deleting?.dataSource ?? '' })}
        confirmLabel={t('settings.customParsers.delete')}
        loading={remove.isPending}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id);
        }}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}
