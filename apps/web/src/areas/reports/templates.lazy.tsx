import {
  Badge,
  Button,
  EmptyState,
  Group,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch, IconTemplate, IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createLazyRoute } from '@tanstack/react-router';
import { DEFAULT_PAGE_SIZE, type ReportTemplate } from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import { ListPager } from '../../shell/list-pager';
import { ListStates } from '../../shell/query-status';
import { EditDeleteButtons } from '../../shell/row-actions';
import { reportsKey, templatePath, templatesQuery } from './api';
import { LibrarySwitch, useProviderAdmin } from './library-view';
import { TemplateDialog } from './template-dialog';

export const Route = createLazyRoute('/reports/templates/list')({ component: TemplatesPage });

/** /reports/templates/list: REPORT_VIEW to see templates, REPORT_EDIT to change them. */
function TemplatesPage() {
  const { t } = useTranslation();
  return (
    <GatedPage title={t('reports.templates.title')} allowed={useHasPermission('REPORT_VIEW')} maw={1300}>
      <TemplateList />
    </GatedPage>
  );
}

/**
 * The organisation's templates, or the provider's library templates (changed by provider
 * administrators only; customers get them by copying a library schedule).
 */
function TemplateList() {
  const { t, i18n } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const providerAdmin = useProviderAdmin();
  const [library, setLibrary] = useState(false);
  const canEdit = useHasPermission('REPORT_EDIT') && (!library || providerAdmin);
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const [pageNumber, setPageNumber] = useState(1);
  const [editing, setEditing] = useState<ReportTemplate | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ReportTemplate | null>(null);
  const list = useQuery(
    templatesQuery(orgId, { search: debouncedSearch, pageNumber, pageSize: DEFAULT_PAGE_SIZE, library }),
  );
  const remove = useMutation({
    mutationFn: (template: ReportTemplate) =>
      apiFetch(templatePath(orgId, template.id), { method: 'DELETE' }),
    onSuccess: async () => {
      setDeleting(null);
      notifyMessage('reports.templates.deleted');
      await queryClient.invalidateQueries({ queryKey: reportsKey(orgId) });
    },
    meta: { errorKey: 'reports.templates.deleteFailed' },
  });
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end">
          <TextInput
            label={t('reports.search')}
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              setPageNumber(1);
            }}
            w={260}
          />
          <LibrarySwitch
            library={library}
            onChange={(next) => {
              setLibrary(next);
              setPageNumber(1);
            }}
          />
        </Group>
        {canEdit && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            {t(library ? 'reports.templates.newLibrary' : 'reports.templates.new')}
          </Button>
        )}
      </Group>
      <ListStates
        query={list}
        loadingLabel={t('reports.templates.loading')}
        failedTitle={t('reports.templates.listFailed')}
        empty={
          <EmptyState
            icon={<IconTemplate size={32} stroke={1.5} />}
            withIndicatorBackground
            title={t('reports.templates.emptyTitle')}
            description={t('reports.templates.emptyMessage')}
          />
        }
      >
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={800}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('reports.name')}</Table.Th>
                    <Table.Th>{t('reports.templates.charts')}</Table.Th>
                    <Table.Th>{t('reports.templates.modified')}</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((template) => (
                    <Table.Tr key={template.id}>
                      <Table.Td>
                        <Text size="sm" fw={500}>
                          {template.name}
                        </Text>
                        {template.copiedFromId && (
                          <Badge size="xs" variant="light">
                            {t('reports.templates.fromLibrary')}
                          </Badge>
                        )}
                        {template.description && (
                          <Text size="xs" c="dimmed" lineClamp={1}>
                            {template.description}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" lineClamp={2}>
                          {template.charts
                            .map((chart) => (chart.live ? chart.name : t('reports.templates.deletedChart')))
                            .join(', ')}
                        </Text>
                      </Table.Td>
                      <Table.Td>{format.format(new Date(template.modifiedOn))}</Table.Td>
                      <Table.Td>
                        {canEdit && (
                          <Group gap={4} wrap="nowrap" justify="flex-end">
                            <EditDeleteButtons
                              editLabel={t('reports.templates.editNamed', { name: template.name })}
                              deleteLabel={t('reports.templates.deleteNamed', { name: template.name })}
                              deleteText={t('reports.delete')}
                              onEdit={() => setEditing(template)}
                              onDelete={() => setDeleting(template)}
                            />
                          </Group>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <ListPager
              total={data.total}
              pageSize={DEFAULT_PAGE_SIZE}
              page={pageNumber}
              onChange={setPageNumber}
            />
          </>
        )}
      </ListStates>
      {editing && (
        <TemplateDialog
          orgId={orgId}
          library={library}
          template={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('reports.templates.deleteTitle')}
        message={t('reports.templates.deleteMessage', { name: deleting?.name ?? '' })}
        confirmLabel={t('reports.delete')}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}
