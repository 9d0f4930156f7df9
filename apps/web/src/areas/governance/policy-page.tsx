import {
  Badge,
  Button,
  Card,
  Group,
  List,
  Modal,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  Timeline,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import {
  DEFAULT_PAGE_SIZE,
  GOVERNANCE_TEXT_MAX_LENGTH,
  POLICY_BODY_MAX_LENGTH,
  policyDetailSchema,
  type PolicyDetail,
  type PolicyKind,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { describeError, notifyMessage } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import { AnchorLink } from '../../shell/links';
import { ListPager } from '../../shell/list-pager';
import { QueryStates } from '../../shell/query-status';
import { acknowledgementsQuery, policiesKey, POLICY_KIND, policyPath, policyQuery } from './policies-api';
import { PolicyForm } from './policy-form';

/** Versions carry their text: ten to a page keeps the timeline readable. */
const VERSIONS_PAGE_SIZE = 10;

type Action =
  { kind: 'approve'; versionId: string; number: number } | { kind: 'review' } | { kind: 'delete' };

/** One policy: its current text to acknowledge, its versions and approvals, reviews and acknowledgements. */
export function PolicyPage({ kind, policyId }: { kind: PolicyKind; policyId: string }) {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canView = useHasPermission(POLICY_KIND[kind].view);
  const policy = useQuery({ ...policyQuery(orgId, kind, policyId), enabled: canView });
  return (
    <GatedPage
      title={policy.data?.name ?? t(`governance.policies.title.${kind}`)}
      allowed={canView}
      maw={1200}
    >
      <AnchorLink to={POLICY_KIND[kind].page} size="sm">
        {t('governance.policies.back', { title: t(`governance.policies.title.${kind}`) })}
      </AnchorLink>
      <QueryStates
        query={policy}
        loadingLabel={t('governance.policies.loadingOne')}
        failedTitle={t('governance.policies.loadOneFailed')}
      >
        {(detail) => <PolicyView orgId={orgId} kind={kind} policy={detail} />}
      </QueryStates>
    </GatedPage>
  );
}

function PolicyView({ orgId, kind, policy }: { orgId: string; kind: PolicyKind; policy: PolicyDetail }) {
  const { t } = useTranslation();
  const canEdit = useHasPermission(POLICY_KIND[kind].edit);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [drafting, setDrafting] = useState(false);
  const [pending, setPending] = useState<Action | null>(null);
  const changed = async (next: PolicyDetail) => {
    queryClient.setQueryData(policyQuery(orgId, kind, policy.id).queryKey, next);
    await queryClient.invalidateQueries({ queryKey: policiesKey(orgId, kind) });
  };
  const path = policyPath(orgId, kind, policy.id);
  const act = useMutation({
    mutationFn: async (action: Action) => {
      if (action.kind === 'delete') {
        await apiFetch(path, { method: 'DELETE' });
        return null;
      }
      return apiFetch(
        action.kind === 'approve' ? `${path}/version/${action.versionId}/approve` : `${path}/review`,
        { method: 'POST', schema: policyDetailSchema },
      );
    },
    onSuccess: async (next, action) => {
      setPending(null);
      if (action.kind === 'delete') {
        notifyMessage('governance.policies.deleted', 'green', { name: policy.name });
        await queryClient.invalidateQueries({ queryKey: policiesKey(orgId, kind) });
        await navigate({ to: POLICY_KIND[kind].page });
        return;
      }
      notifyMessage(
        action.kind === 'approve' ? 'governance.policies.approved' : 'governance.policies.reviewed',
      );
      if (next) await changed(next);
    },
    meta: { errorKey: 'governance.policies.actionFailed' },
  });
  const acknowledge = useMutation({
    mutationFn: (versionId: string) =>
      apiFetch(`${path}/acknowledge`, { method: 'POST', body: { versionId }, schema: policyDetailSchema }),
    onSuccess: async (next) => {
      notifyMessage('governance.policies.acknowledgedNotice', 'green');
      await changed(next);
    },
    meta: { errorKey: 'governance.policies.actionFailed' },
  });
  const current = policy.versions.find((version) => version.id === policy.currentVersion?.id) ?? null;
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Title order={2}>{policy.name}</Title>
          {policy.description && <Text c="dimmed">{policy.description}</Text>}
        </Stack>
        {canEdit && (
          <Group gap="xs">
            <Button variant="default" onClick={() => setEditing(true)}>
              {t('governance.policies.edit')}
            </Button>
            <Button variant="default" onClick={() => setDrafting(true)}>
              {t('governance.policies.newVersion')}
            </Button>
            <Button variant="default" disabled={!current} onClick={() => setPending({ kind: 'review' })}>
              {t('governance.policies.markReviewed')}
            </Button>
            <Button color="red" variant="light" onClick={() => setPending({ kind: 'delete' })}>
              {t('governance.policies.delete')}
            </Button>
          </Group>
        )}
      </Group>
      <SimpleGrid cols={{ base: 2, md: 4 }}>
        <Fact label={t('governance.policies.owner')} value={policy.ownerName ?? '—'} />
        <Fact
          label={t('governance.policies.reviewEvery')}
          value={t('governance.policies.months', { count: policy.reviewEveryMonths })}
        />
        <Fact label={t('governance.policies.lastReviewed')} value={policy.lastReviewedOn ?? '—'} />
        <Fact
          label={t('governance.policies.nextReview')}
          value={policy.nextReviewOn ?? '—'}
          badge={policy.reviewOverdue ? t('governance.policies.overdue') : undefined}
        />
      </SimpleGrid>
      {policy.catRefs.length > 0 && (
        <Text size="sm">
          {t('governance.policies.catRefs')}: {policy.catRefs.join(', ')}
        </Text>
      )}
      <Card withBorder component="section" aria-label={t('governance.policies.currentText')}>
        <Stack gap="sm">
          <Group justify="space-between">
            <Title order={3}>
              {current
                ? t('governance.policies.currentVersion', { number: current.number })
                : t('governance.policies.notApproved')}
            </Title>
            {current &&
              (policy.acknowledgedByMe ? (
                <Badge color="green" variant="light">
                  {t('governance.policies.youAcknowledged')}
                </Badge>
              ) : (
                <Button loading={acknowledge.isPending} onClick={() => acknowledge.mutate(current.id)}>
                  {t('governance.policies.acknowledge')}
                </Button>
              ))}
          </Group>
          {current ? (
            <>
              <Text size="xs" c="dimmed">
                {t('governance.policies.approvedBy', {
                  name: current.approvedByName ?? '—',
                  on: new Date(current.approvedOn!).toLocaleString(),
                })}
              </Text>
              <Text style={{ whiteSpace: 'pre-wrap' }}>{current.body}</Text>
            </>
          ) : (
            <Text size="sm" c="dimmed">
              {t('governance.policies.notApprovedHint')}
            </Text>
          )}
        </Stack>
      </Card>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Versions
          policy={policy}
          canEdit={canEdit}
          onApprove={(versionId, number) => setPending({ kind: 'approve', versionId, number })}
        />
        <Acknowledgements orgId={orgId} kind={kind} policy={policy} />
      </SimpleGrid>
      {editing && (
        <PolicyForm
          orgId={orgId}
          kind={kind}
          policy={policy}
          onClose={() => setEditing(false)}
          onSaved={async (next) => {
            setEditing(false);
            notifyMessage('governance.policies.saved');
            await changed(next);
          }}
        />
      )}
      {drafting && (
        <VersionForm
          orgId={orgId}
          kind={kind}
          policy={policy}
          onClose={() => setDrafting(false)}
          onSaved={async (next) => {
            setDrafting(false);
            notifyMessage('governance.policies.versionAdded');
            await changed(next);
          }}
        />
      )}
      <ConfirmDialog
        opened={pending !== null}
        title={pending ? t(`governance.policies.confirm.${pending.kind}.title`) : ''}
        message={
          pending
            ? t(`governance.policies.confirm.${pending.kind}.message`, {
                name: policy.name,
                number: pending.kind === 'approve' ? pending.number : 0,
              })
            : ''
        }
        confirmLabel={pending ? t(`governance.policies.confirm.${pending.kind}.action`) : ''}
        loading={act.isPending}
        onConfirm={() => pending && act.mutate(pending)}
        onCancel={() => setPending(null)}
      />
    </Stack>
  );
}

function Fact({ label, value, badge }: { label: string; value: string; badge?: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Group gap="xs">
        <Text size="sm">{value}</Text>
        {badge && (
          <Badge color="red" variant="light">
            {badge}
          </Badge>
        )}
      </Group>
    </Stack>
  );
}

function Versions({
  policy,
  canEdit,
  onApprove,
}: {
  policy: PolicyDetail;
  canEdit: boolean;
  onApprove: (versionId: string, number: number) => void;
}) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const currentNumber = policy.currentVersion?.number ?? 0;
  return (
    <Card withBorder component="section" aria-label={t('governance.policies.versions')}>
      <Title order={3} mb="sm">
        {t('governance.policies.versions')}
      </Title>
      <Timeline bulletSize={18} lineWidth={2} active={-1}>
        {policy.versions.slice((page - 1) * VERSIONS_PAGE_SIZE, page * VERSIONS_PAGE_SIZE).map((version) => (
          <Timeline.Item
            key={version.id}
            title={
              <Group gap="xs">
                <Text fw={500}>{t('governance.policies.versionNumber', { number: version.number })}</Text>
                {version.number === currentNumber && (
                  <Badge color="green" variant="light">
                    {t('governance.policies.currentBadge')}
                  </Badge>
                )}
              </Group>
            }
          >
            {version.changeNote && <Text size="sm">{version.changeNote}</Text>}
            <Text size="xs" c="dimmed">
              {t('governance.policies.writtenBy', {
                name: version.createdByName ?? '—',
                on: new Date(version.createdOn).toLocaleString(),
              })}
            </Text>
            {version.approvedOn ? (
              <Text size="xs" c="dimmed">
                {t('governance.policies.approvedBy', {
                  name: version.approvedByName ?? '—',
                  on: new Date(version.approvedOn).toLocaleString(),
                })}
              </Text>
            ) : (
              version.number > currentNumber &&
              canEdit && (
                <Button
                  mt={4}
                  size="xs"
                  variant="light"
                  aria-label={t('governance.policies.approveNamed', { number: version.number })}
                  onClick={() => onApprove(version.id, version.number)}
                >
                  {t('governance.policies.approve')}
                </Button>
              )
            )}
          </Timeline.Item>
        ))}
      </Timeline>
      <ListPager
        page={page}
        pageSize={VERSIONS_PAGE_SIZE}
        total={policy.versions.length}
        onChange={setPage}
        withRange={false}
      />
    </Card>
  );
}

function Acknowledgements({
  orgId,
  kind,
  policy,
}: {
  orgId: string;
  kind: PolicyKind;
  policy: PolicyDetail;
}) {
  const { t } = useTranslation();
  const [acknowledgedPage, setAcknowledgedPage] = useState(1);
  const [pendingPage, setPendingPage] = useState(1);
  const acknowledgements = useQuery(
    acknowledgementsQuery(orgId, kind, policy.id, { acknowledgedPage, pendingPage }),
  );
  // A list that shrank (a new version was approved) leaves no one on a later page: go to its last one.
  const lastPage = (total: number) => Math.max(1, Math.ceil(total / DEFAULT_PAGE_SIZE));
  const totals = acknowledgements.data;
  if (totals && acknowledgedPage > lastPage(totals.acknowledgedTotal)) {
    setAcknowledgedPage(lastPage(totals.acknowledgedTotal));
  }
  if (totals && pendingPage > lastPage(totals.pendingTotal)) setPendingPage(lastPage(totals.pendingTotal));
  return (
    <Card withBorder component="section" aria-label={t('governance.policies.acknowledgements')}>
      <Title order={3} mb="sm">
        {t('governance.policies.acknowledgements')}
      </Title>
      <QueryStates
        query={acknowledgements}
        loadingLabel={t('governance.policies.loadingAcknowledgements')}
        failedTitle={t('governance.policies.acknowledgementsFailed')}
      >
        {(data) =>
          data.version === null ? (
            <Text size="sm" c="dimmed">
              {t('governance.policies.notApprovedHint')}
            </Text>
          ) : (
            <SimpleGrid cols={2}>
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  {t('governance.policies.haveAcknowledged', { count: data.acknowledgedTotal })}
                </Text>
                <List size="sm" aria-label={t('governance.policies.haveAcknowledgedList')}>
                  {data.acknowledged.map((person) => (
                    <List.Item key={person.userId}>
                      {person.name}{' '}
                      <Text span size="xs" c="dimmed">
                        {new Date(person.acknowledgedOn).toLocaleDateString()}
                      </Text>
                    </List.Item>
                  ))}
                </List>
                <ListPager
                  page={acknowledgedPage}
                  pageSize={DEFAULT_PAGE_SIZE}
                  total={data.acknowledgedTotal}
                  onChange={setAcknowledgedPage}
                  withRange={false}
                />
              </Stack>
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  {t('governance.policies.notYetAcknowledged', { count: data.pendingTotal })}
                </Text>
                <List size="sm" aria-label={t('governance.policies.notYetAcknowledgedList')}>
                  {data.pending.map((person) => (
                    <List.Item key={person.userId}>{person.name}</List.Item>
                  ))}
                </List>
                <ListPager
                  page={pendingPage}
                  pageSize={DEFAULT_PAGE_SIZE}
                  total={data.pendingTotal}
                  onChange={setPendingPage}
                  withRange={false}
                />
              </Stack>
            </SimpleGrid>
          )
        }
      </QueryStates>
    </Card>
  );
}

function VersionForm({
  orgId,
  kind,
  policy,
  onSaved,
  onClose,
}: {
  orgId: string;
  kind: PolicyKind;
  policy: PolicyDetail;
  onSaved: (policy: PolicyDetail) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [body, setBody] = useState(policy.versions[0]?.body ?? '');
  const [changeNote, setChangeNote] = useState('');
  const save = useMutation({
    mutationFn: () =>
      apiFetch(`${policyPath(orgId, kind, policy.id)}/version`, {
        method: 'POST',
        body: { body, changeNote },
        schema: policyDetailSchema,
      }),
    onSuccess: onSaved,
    meta: { notifyError: false },
  });
  return (
    <Modal opened onClose={onClose} size="lg" title={t('governance.policies.newVersionTitle')}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate();
        }}
      >
        <Stack gap="sm">
          <Textarea
            label={t('governance.policies.body')}
            required
            autosize
            minRows={8}
            maxLength={POLICY_BODY_MAX_LENGTH}
            value={body}
            onChange={(event) => setBody(event.currentTarget.value)}
          />
          <Textarea
            label={t('governance.policies.changeNote')}
            autosize
            maxLength={GOVERNANCE_TEXT_MAX_LENGTH}
            value={changeNote}
            onChange={(event) => setChangeNote(event.currentTarget.value)}
          />
          {save.error && (
            <Text size="sm" c="red" role="alert">
              {describeError(save.error, t)}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('governance.policies.saveVersion')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
