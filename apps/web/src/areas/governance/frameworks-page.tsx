import {
  Badge,
  Button,
  Card,
  EmptyState,
  FileButton,
  Group,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconBooks, IconUpload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { AnchorLink, ButtonLink } from '../../shell/links';
import { frameworkDetailSchema, type LibraryFramework } from '@vigil/contracts';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { GatedPage } from '../../shell/gated-page';
import { QueryStates } from '../../shell/query-status';
import { frameworksQuery, governanceKey, governancePath, libraryQuery } from './api';

/** /governance/frameworks: the organisation's frameworks, the library to adopt from, and OSCAL import. */
export function FrameworksPage() {
  const { t } = useTranslation();
  const canView = useHasPermission('POLICY_FRAMEWORK_VIEW');
  return (
    <GatedPage title={t('governance.frameworks.title')} allowed={canView} maw={1200}>
      <FrameworkList />
      <Library />
    </GatedPage>
  );
}

function FrameworkList() {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const list = useQuery(frameworksQuery(orgId));
  return (
    <QueryStates
      query={list}
      loadingLabel={t('governance.frameworks.loading')}
      failedTitle={t('governance.frameworks.loadFailed')}
    >
      {(frameworks) =>
        frameworks.length === 0 ? (
          <EmptyState
            icon={<IconBooks size={32} stroke={1.5} />}
            withIndicatorBackground
            title={t('governance.frameworks.emptyTitle')}
            description={t('governance.frameworks.emptyMessage')}
          />
        ) : (
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('governance.frameworks.name')}</Table.Th>
                <Table.Th>{t('governance.frameworks.controls')}</Table.Th>
                <Table.Th>{t('governance.frameworks.currentPeriod')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {frameworks.map((framework) => {
                const period = framework.currentPeriod;
                return (
                  <Table.Tr key={framework.id}>
                    <Table.Td>
                      <AnchorLink
                        to="/governance/frameworks/$frameworkId"
                        params={{ frameworkId: framework.id }}
                        fw={500}
                      >
                        {framework.name}
                      </AnchorLink>
                      <Text size="xs" c="dimmed">
                        {[framework.version, t(`governance.sources.${framework.source}`)]
                          .filter(Boolean)
                          .join(' · ')}
                      </Text>
                    </Table.Td>
                    <Table.Td>{framework.controlCount}</Table.Td>
                    <Table.Td>
                      {period ? (
                        <Stack gap={4}>
                          <Text size="sm">
                            {t('governance.frameworks.answered', {
                              name: period.name,
                              answered: period.answered,
                              total: framework.controlCount,
                            })}
                          </Text>
                          <Progress
                            value={(100 * period.answered) / Math.max(framework.controlCount, 1)}
                            aria-label={t('governance.frameworks.progress', { name: framework.name })}
                          />
                        </Stack>
                      ) : (
                        <Text size="sm" c="dimmed">
                          {t('governance.frameworks.noPeriod')}
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )
      }
    </QueryStates>
  );
}

function Library() {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canEdit = useHasPermission('POLICY_FRAMEWORK_EDIT');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const library = useQuery(libraryQuery(orgId));
  const opened = async (id: string) => {
    await queryClient.invalidateQueries({ queryKey: governanceKey(orgId) });
    await navigate({ to: '/governance/frameworks/$frameworkId', params: { frameworkId: id } });
  };
  const adopt = useMutation({
    mutationFn: (item: LibraryFramework) =>
      apiFetch(`${governancePath(orgId)}/framework-library/${encodeURIComponent(item.key)}/adopt`, {
        method: 'POST',
        schema: frameworkDetailSchema,
      }),
    onSuccess: async (framework) => {
      notifyMessage('governance.library.adopted', 'green', { name: framework.name });
      await opened(framework.id);
    },
    meta: { errorKey: 'governance.library.adoptFailed' },
  });
  const upload = useMutation({
    mutationFn: (file: File) => {
      const formData = new FormData();
      formData.append('file', file, file.name);
      return apiFetch(`${governancePath(orgId)}/framework-import`, {
        method: 'POST',
        formData,
        schema: frameworkDetailSchema,
      });
    },
    onSuccess: async (framework) => {
      notifyMessage('governance.library.imported', 'green', { name: framework.name });
      await opened(framework.id);
    },
    meta: { errorKey: 'governance.library.importFailed' },
  });
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={2}>{t('governance.library.title')}</Title>
        {canEdit && (
          <FileButton accept="application/json,.json" onChange={(file) => file && upload.mutate(file)}>
            {(props) => (
              <Button
                {...props}
                variant="default"
                leftSection={<IconUpload size={16} />}
                loading={upload.isPending}
              >
                {t('governance.library.import')}
              </Button>
            )}
          </FileButton>
        )}
      </Group>
      <QueryStates
        query={library}
        loadingLabel={t('governance.library.loading')}
        failedTitle={t('governance.library.loadFailed')}
      >
        {(items) => (
          <SimpleGrid cols={{ base: 1, md: 3 }}>
            {items.map((item) => (
              <Card key={item.key} withBorder component="section" aria-label={item.name}>
                <Stack gap="xs" h="100%">
                  <Group justify="space-between" align="flex-start" wrap="nowrap">
                    <Text fw={600}>{item.name}</Text>
                    <Badge variant="light" style={{ flexShrink: 0 }}>
                      {item.publisher}
                    </Badge>
                  </Group>
                  <Text size="xs" c="dimmed">
                    {t('governance.library.counts', {
                      version: item.version,
                      sections: item.sectionCount,
                      controls: item.controlCount,
                    })}
                  </Text>
                  <Text size="sm" style={{ flexGrow: 1 }}>
                    {item.description}
                  </Text>
                  {item.adoptedId ? (
                    <ButtonLink
                      variant="light"
                      to="/governance/frameworks/$frameworkId"
                      params={{ frameworkId: item.adoptedId }}
                    >
                      {t('governance.library.open')}
                    </ButtonLink>
                  ) : (
                    canEdit && (
                      <Button
                        aria-label={t('governance.library.adoptNamed', { name: item.name })}
                        loading={adopt.isPending && adopt.variables.key === item.key}
                        onClick={() => adopt.mutate(item)}
                      >
                        {t('governance.library.adopt')}
                      </Button>
                    )
                  )}
                </Stack>
              </Card>
            ))}
          </SimpleGrid>
        )}
      </QueryStates>
    </Stack>
  );
}
