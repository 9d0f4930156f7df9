import { Badge, Button, EmptyState, Group, Pagination, Stack, Table, Text } from '@mantine/core';
import { IconFileCertificate, IconPlus } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { PolicyKind, PolicySummary } from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyMessage } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { GatedPage } from '../../shell/gated-page';
import { AnchorLink } from '../../shell/links';
import { QueryStates } from '../../shell/query-status';
import { policiesKey, policiesQuery, POLICY_KIND } from './policies-api';
import { PolicyForm } from './policy-form';

const PAGE_SIZE = 25;

/** /governance/policies and /governance/cat: the organisation's policies of one kind. */
export function PoliciesPage({ kind }: { kind: PolicyKind }) {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canView = useHasPermission(POLICY_KIND[kind].view);
  const canEdit = useHasPermission(POLICY_KIND[kind].edit);
  const [creating, setCreating] = useState(false);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const list = useQuery({ ...policiesQuery(orgId, kind), enabled: canView });
  return (
    <GatedPage title={t(`governance.policies.title.${kind}`)} allowed={canView} maw={1200}>
      <Group justify="space-between">
        <Text c="dimmed" size="sm">
          {t(`governance.policies.intro.${kind}`)}
        </Text>
        {canEdit && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            {t('governance.policies.new')}
          </Button>
        )}
      </Group>
      <QueryStates
        query={list}
        loadingLabel={t('governance.policies.loading')}
        failedTitle={t('governance.policies.loadFailed')}
      >
        {(policies) =>
          policies.length === 0 ? (
            <EmptyState
              icon={<IconFileCertificate size={32} stroke={1.5} />}
              withIndicatorBackground
              title={t('governance.policies.emptyTitle')}
              description={t('governance.policies.emptyMessage')}
            />
          ) : (
            <PolicyTable kind={kind} policies={policies} />
          )
        }
      </QueryStates>
      {creating && (
        <PolicyForm
          orgId={orgId}
          kind={kind}
          onClose={() => setCreating(false)}
          onSaved={async (policy) => {
            notifyMessage('governance.policies.created', 'green', { name: policy.name });
            await queryClient.invalidateQueries({ queryKey: policiesKey(orgId, kind) });
            await navigate({ to: `${POLICY_KIND[kind].page}/$policyId`, params: { policyId: policy.id } });
          }}
        />
      )}
    </GatedPage>
  );
}

function PolicyTable({ kind, policies }: { kind: PolicyKind; policies: PolicySummary[] }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const pages = Math.ceil(policies.length / PAGE_SIZE);
  const shown = policies.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  return (
    <Stack gap="sm">
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('governance.policies.name')}</Table.Th>
            <Table.Th>{t('governance.policies.owner')}</Table.Th>
            <Table.Th>{t('governance.policies.current')}</Table.Th>
            <Table.Th>{t('governance.policies.nextReview')}</Table.Th>
            <Table.Th>{t('governance.policies.acknowledged')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {shown.map((policy) => (
            <Table.Tr key={policy.id}>
              <Table.Td>
                <AnchorLink
                  to={`${POLICY_KIND[kind].page}/$policyId`}
                  params={{ policyId: policy.id }}
                  fw={500}
                >
                  {policy.name}
                </AnchorLink>
                {policy.catRefs.length > 0 && (
                  <Text size="xs" c="dimmed">
                    {policy.catRefs.join(', ')}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{policy.ownerName ?? '—'}</Table.Td>
              <Table.Td>
                {policy.currentVersion ? (
                  t('governance.policies.versionNumber', { number: policy.currentVersion.number })
                ) : (
                  <Badge color="gray" variant="light">
                    {t('governance.policies.notApproved')}
                  </Badge>
                )}
                {policy.latestVersionNumber > (policy.currentVersion?.number ?? 0) &&
                  policy.currentVersion && (
                    <Badge ml="xs" color="yellow" variant="light">
                      {t('governance.policies.draftWaiting', { number: policy.latestVersionNumber })}
                    </Badge>
                  )}
              </Table.Td>
              <Table.Td>
                {policy.nextReviewOn ?? '—'}
                {policy.reviewOverdue && (
                  <Badge ml="xs" color="red" variant="light">
                    {t('governance.policies.overdue')}
                  </Badge>
                )}
              </Table.Td>
              <Table.Td>
                {policy.currentVersion
                  ? t('governance.policies.acknowledgedCount', {
                      count: policy.acknowledgedCount,
                      total: policy.audienceCount,
                    })
                  : '—'}
                {policy.currentVersion && !policy.acknowledgedByMe && (
                  <Badge ml="xs" variant="light">
                    {t('governance.policies.toAcknowledge')}
                  </Badge>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {pages > 1 && (
        <Pagination
          total={pages}
          value={page}
          onChange={setPage}
          getControlProps={(control) => ({ 'aria-label': t(`settings.pagination.${control}`) })}
        />
      )}
    </Stack>
  );
}
