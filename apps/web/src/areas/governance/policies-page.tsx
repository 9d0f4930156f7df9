import {
  Badge,
  Button,
  EmptyState,
  Group,
  Pagination,
  SegmentedControl,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { IconFileCertificate, IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import {
  policyDetailSchema,
  type DeletedPolicy,
  type PolicyKind,
  type PolicySummary,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { GatedPage } from '../../shell/gated-page';
import { AnchorLink } from '../../shell/links';
import { ListPager } from '../../shell/list-pager';
import { QueryStates } from '../../shell/query-status';
import { deletedPoliciesQuery, policiesKey, policiesQuery, policyPath, POLICY_KIND } from './policies-api';
import { PolicyForm } from './policy-form';

const PAGE_SIZE = 25;

/** /governance/policies and /governance/cat: the organisation's policies of one kind. */
export function PoliciesPage({ kind }: { kind: PolicyKind }) {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canView = useHasPermission(POLICY_KIND[kind].view);
  const canEdit = useHasPermission(POLICY_KIND[kind].edit);
  const [creating, setCreating] = useState(false);
  const [showDeleted, setShowDeleted] = useState(false);
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
          <Group gap="sm">
            <SegmentedControl
              aria-label={t('governance.policies.view')}
              value={showDeleted ? 'deleted' : 'current'}
              onChange={(value) => setShowDeleted(value === 'deleted')}
              data={[
                { value: 'current', label: t('governance.policies.currentView') },
                { value: 'deleted', label: t('governance.policies.deletedView') },
              ]}
            />
            <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
              {t('governance.policies.new')}
            </Button>
          </Group>
        )}
      </Group>
      {showDeleted && canEdit ? (
        <DeletedPolicies orgId={orgId} kind={kind} />
      ) : (
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
      )}
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

/** The deleted policies of a kind, for editors to restore (restoring needs no confirmation). */
function DeletedPolicies({ orgId, kind }: { orgId: string; kind: PolicyKind }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const deleted = useQuery(deletedPoliciesQuery(orgId, kind));
  const restore = useMutation({
    mutationFn: (policy: DeletedPolicy) =>
      apiFetch(`${policyPath(orgId, kind, policy.id)}/restore`, {
        method: 'POST',
        schema: policyDetailSchema,
      }),
    onSuccess: async (policy) => {
      notifyMessage('governance.policies.restored', 'green', { name: policy.name });
      await queryClient.invalidateQueries({ queryKey: policiesKey(orgId, kind) });
    },
    meta: { errorKey: 'governance.policies.restoreFailed' },
  });
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <QueryStates
      query={deleted}
      loadingLabel={t('governance.policies.loadingDeleted')}
      failedTitle={t('governance.policies.loadDeletedFailed')}
    >
      {(policies) => {
        if (policies.length === 0) {
          return (
            <Text size="sm" c="dimmed">
              {t('governance.policies.noneDeleted')}
            </Text>
          );
        }
        // A restore shortens the list: stay on the last page that still has rows.
        const current = Math.min(page, Math.ceil(policies.length / PAGE_SIZE));
        return (
          <Stack gap="sm">
            <Table striped aria-label={t('governance.policies.deletedView')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('governance.policies.name')}</Table.Th>
                  <Table.Th>{t('governance.policies.owner')}</Table.Th>
                  <Table.Th>{t('governance.policies.deletedOn')}</Table.Th>
                  <Table.Th>{t('common.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {policies.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE).map((policy) => (
                  <Table.Tr key={policy.id}>
                    <Table.Td fw={500}>{policy.name}</Table.Td>
                    <Table.Td>{policy.ownerName ?? '—'}</Table.Td>
                    <Table.Td>{dateFormat.format(new Date(policy.deletedOn))}</Table.Td>
                    <Table.Td>
                      <Button
                        size="compact-sm"
                        variant="light"
                        aria-label={t('governance.policies.restoreNamed', { name: policy.name })}
                        loading={restore.isPending && restore.variables.id === policy.id}
                        onClick={() => restore.mutate(policy)}
                      >
                        {t('governance.policies.restore')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <ListPager page={current} pageSize={PAGE_SIZE} total={policies.length} onChange={setPage} />
          </Stack>
        );
      }}
    </QueryStates>
  );
}
