import {
  Anchor,
  Badge,
  Box,
  Button,
  Grid,
  Group,
  Menu,
  NavLink,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconChevronDown, IconFileTypePdf } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { AnchorLink } from '../../shell/links';
import {
  CROSSWALK_TARGET,
  DEFAULT_PAGE_SIZE,
  EVALUATION_PERIOD_EXTENSIONS,
  evaluationPeriodSchema,
  frameworkDetailSchema,
  type ControlAnswer,
  type EvaluationPeriod,
  type FrameworkControl,
  type FrameworkDetail,
  type FrameworkSection,
} from '@vigil/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import { ListPager } from '../../shell/list-pager';
import { QueryStates } from '../../shell/query-status';
import { answersQuery, frameworkPath, frameworkQuery, governanceKey, periodPath, periodsQuery } from './api';
import { ControlPanel } from './control-panel';
import { EvidenceReportDialog } from './evidence-report-dialog';
import { EditFrameworkDialog, TiersDialog } from './framework-dialogs';
import { CarryOverDialog, ComparePeriodsDialog, NewPeriodDialog } from './period-dialogs';
import { StatusBadge } from './status-badge';

/** /governance/frameworks/$frameworkId: sections, controls and the answers of an evaluation period. */
export function FrameworkPage({ frameworkId }: { frameworkId: string }) {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canView = useHasPermission('POLICY_FRAMEWORK_VIEW');
  const framework = useQuery({ ...frameworkQuery(orgId, frameworkId), enabled: canView });
  return (
    <GatedPage title={framework.data?.name ?? t('governance.framework.title')} allowed={canView}>
      <AnchorLink to="/governance/frameworks" size="sm">
        {t('governance.framework.back')}
      </AnchorLink>
      <QueryStates
        query={framework}
        loadingLabel={t('governance.framework.loading')}
        failedTitle={t('governance.framework.loadFailed')}
      >
        {(data) => <Framework orgId={orgId} framework={data} />}
      </QueryStates>
    </GatedPage>
  );
}

type PeriodAction = { kind: 'finalize' } | { kind: 'extend'; months: number };

function Framework({ orgId, framework }: { orgId: string; framework: FrameworkDetail }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const canEdit = useHasPermission('POLICY_FRAMEWORK_EDIT');
  const periods = useQuery(periodsQuery(orgId, framework.id));
  const [chosenPeriodId, setPeriodId] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [comparing, setComparing] = useState(false);
  const [carrying, setCarrying] = useState(false);
  const [reporting, setReporting] = useState(false);
  const [pending, setPending] = useState<PeriodAction | null>(null);
  const [sectionId, setSectionId] = useState<string | null>(null);
  const [editing, setEditing] = useState<'details' | 'tiers' | null>(null);
  const [deleting, setDeleting] = useState(false);
  const navigate = useNavigate();
  const list = periods.data ?? [];
  const period =
    list.find((item) => item.id === chosenPeriodId) ??
    list.find((item) => item.state === 'IN_PROGRESS') ??
    list[0] ??
    null;
  const refresh = () => queryClient.invalidateQueries({ queryKey: governanceKey(orgId) });
  const act = useMutation({
    mutationFn: (action: PeriodAction) =>
      apiFetch(`${periodPath(orgId, period!.id)}/${action.kind}`, {
        method: 'POST',
        ...(action.kind === 'extend' && { body: { months: action.months } }),
        schema: evaluationPeriodSchema,
      }),
    onSuccess: async (_, action) => {
      setPending(null);
      notifyMessage(`governance.periods.done.${action.kind}`);
      await refresh();
    },
    meta: { errorKey: 'governance.periods.changeFailed' },
  });

  const remove = useMutation({
    mutationFn: () => apiFetch(frameworkPath(orgId, framework.id), { method: 'DELETE' }),
    onSuccess: async () => {
      setDeleting(false);
      notifyMessage('governance.framework.deleted', 'green', { name: framework.name });
      await navigate({ to: '/governance/frameworks' });
      queryClient.removeQueries({ queryKey: frameworkQuery(orgId, framework.id).queryKey });
      await refresh();
    },
    onError: () => setDeleting(false),
    meta: { errorKey: 'governance.framework.deleteFailed' },
  });

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          {framework.description && <Text size="sm">{framework.description}</Text>}
          <Text size="xs" c="dimmed">
            {framework.tiers.length > 0
              ? t('governance.framework.tiers', { tiers: framework.tiers.join(' → ') })
              : t('governance.framework.noTiers')}
          </Text>
        </Stack>
        {canEdit && (
          <Group gap="xs">
            <Button variant="default" onClick={() => setEditing('details')}>
              {t('governance.framework.edit')}
            </Button>
            <Button variant="default" onClick={() => setEditing('tiers')}>
              {t('governance.framework.editTiers')}
            </Button>
            <Button color="red" variant="light" onClick={() => setDeleting(true)}>
              {t('governance.framework.delete')}
            </Button>
          </Group>
        )}
      </Group>
      <Paper withBorder p="sm">
        <QueryStates
          query={periods}
          loadingLabel={t('governance.periods.loading')}
          failedTitle={t('governance.periods.loadFailed')}
        >
          {() => (
            <Group justify="space-between" align="flex-end">
              <Group align="flex-end">
                {period ? (
                  <Select
                    label={t('governance.periods.period')}
                    allowDeselect={false}
                    data={list.map((item) => ({
                      value: item.id,
                      label: `${item.name} (${t(`governance.periods.states.${item.state}`)})`,
                    }))}
                    value={period.id}
                    onChange={setPeriodId}
                  />
                ) : (
                  <Text size="sm">{t('governance.periods.none')}</Text>
                )}
                {period && <PeriodFacts period={period} />}
              </Group>
              <Group gap="xs">
                {period && (
                  <Button
                    variant="default"
                    leftSection={<IconFileTypePdf size={16} />}
                    onClick={() => setReporting(true)}
                  >
                    {t('governance.periods.evidenceReport')}
                  </Button>
                )}
                {list.length > 1 && (
                  <Button variant="default" onClick={() => setComparing(true)}>
                    {t('governance.periods.compare')}
                  </Button>
                )}
                {canEdit && period?.state === 'IN_PROGRESS' && (
                  <>
                    {framework.libraryKey === CROSSWALK_TARGET && (
                      <Button variant="default" onClick={() => setCarrying(true)}>
                        {t('governance.carryOver.open')}
                      </Button>
                    )}
                    <Menu>
                      <Menu.Target>
                        <Button variant="default" rightSection={<IconChevronDown size={14} />}>
                          {t('governance.periods.extend')}
                        </Button>
                      </Menu.Target>
                      <Menu.Dropdown>
                        {EVALUATION_PERIOD_EXTENSIONS.map((months) => (
                          <Menu.Item key={months} onClick={() => setPending({ kind: 'extend', months })}>
                            {t('governance.periods.extendBy', { months })}
                          </Menu.Item>
                        ))}
                      </Menu.Dropdown>
                    </Menu>
                    <Button color="red" variant="light" onClick={() => setPending({ kind: 'finalize' })}>
                      {t('governance.periods.finalize')}
                    </Button>
                  </>
                )}
                {canEdit && <Button onClick={() => setCreating(true)}>{t('governance.periods.new')}</Button>}
              </Group>
            </Group>
          )}
        </QueryStates>
      </Paper>
      {framework.riskProfile && period && (
        <RiskProfilePanel orgId={orgId} framework={framework} period={period} canEdit={canEdit} />
      )}
      <Grid>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <SectionTree framework={framework} selected={sectionId} onSelect={setSectionId} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <SectionControls
            orgId={orgId}
            framework={framework}
            sectionId={sectionId}
            period={period}
            canEdit={canEdit}
          />
        </Grid.Col>
      </Grid>
      {creating && (
        <NewPeriodDialog
          orgId={orgId}
          frameworkId={framework.id}
          onClose={() => setCreating(false)}
          onCreated={(created) => setPeriodId(created.id)}
        />
      )}
      {reporting && period && (
        <EvidenceReportDialog
          orgId={orgId}
          frameworkName={framework.name}
          period={period}
          onClose={() => setReporting(false)}
        />
      )}
      {carrying && period && (
        <CarryOverDialog orgId={orgId} period={period} onClose={() => setCarrying(false)} />
      )}
      {comparing && period && (
        <ComparePeriodsDialog
          orgId={orgId}
          periods={list}
          current={period}
          onClose={() => setComparing(false)}
        />
      )}
      {editing === 'details' && (
        <EditFrameworkDialog orgId={orgId} framework={framework} onClose={() => setEditing(null)} />
      )}
      {editing === 'tiers' && (
        <TiersDialog orgId={orgId} framework={framework} onClose={() => setEditing(null)} />
      )}
      <ConfirmDialog
        opened={deleting}
        title={t('governance.framework.deleteTitle')}
        message={t(
          list.length > 0 ? 'governance.framework.deleteWithPeriods' : 'governance.framework.deleteMessage',
          {
            name: framework.name,
            sections: framework.sectionCount,
            controls: framework.controlCount,
            count: list.length,
          },
        )}
        confirmLabel={t('governance.framework.delete')}
        loading={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => setDeleting(false)}
      />
      <ConfirmDialog
        opened={pending !== null}
        title={t(
          pending?.kind === 'finalize'
            ? 'governance.periods.finalizeTitle'
            : 'governance.periods.extendTitle',
        )}
        message={
          pending?.kind === 'extend'
            ? t('governance.periods.extendMessage', { name: period?.name ?? '', months: pending.months })
            : t('governance.periods.finalizeMessage', { name: period?.name ?? '' })
        }
        confirmLabel={t(
          pending?.kind === 'finalize' ? 'governance.periods.finalize' : 'governance.periods.extend',
        )}
        loading={act.isPending}
        onConfirm={() => pending && act.mutate(pending)}
        onCancel={() => setPending(null)}
      />
    </Stack>
  );
}

function PeriodFacts({ period }: { period: EvaluationPeriod }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2}>
      <Text size="sm">
        {t('governance.periods.range', { start: period.startsOn, end: period.endsOn })}
        {period.extensions.length > 0 &&
          ` · ${t('governance.periods.extended', { months: period.extensions.map((item) => `+${item.months}`).join(', ') })}`}
      </Text>
      <Group gap="xs">
        <Badge color={period.state === 'FINALIZED' ? 'gray' : 'blue'} variant="light">
          {t(`governance.periods.states.${period.state}`)}
        </Badge>
        <Text size="xs" c="dimmed">
          {t('governance.periods.answered', { answered: period.answered, total: period.controlCount })}
        </Text>
      </Group>
    </Stack>
  );
}

/** The sections as a tree of links; choosing one shows its controls and those below it. */
function SectionTree({
  framework,
  selected,
  onSelect,
}: {
  framework: FrameworkDetail;
  selected: string | null;
  onSelect: (id: string | null) => void;
}) {
  const { t } = useTranslation();
  const children = useMemo(() => {
    const map = new Map<string | null, FrameworkSection[]>();
    for (const section of framework.sections) {
      map.set(section.parentId, [...(map.get(section.parentId) ?? []), section]);
    }
    return map;
  }, [framework.sections]);
  const render = (parentId: string | null) =>
    (children.get(parentId) ?? []).map((section) => {
      const below = children.get(section.id);
      return (
        <NavLink
          key={section.id}
          label={`${section.ref} ${section.title === section.ref ? '' : section.title}`.trim()}
          active={selected === section.id}
          defaultOpened={false}
          onClick={() => onSelect(section.id)}
          childrenOffset={12}
        >
          {below ? render(section.id) : undefined}
        </NavLink>
      );
    });
  return (
    <Paper withBorder p={4} component="nav" aria-label={t('governance.framework.sections')}>
      <NavLink
        label={t('governance.framework.allSections')}
        active={selected === null}
        onClick={() => onSelect(null)}
      />
      {render(null)}
    </Paper>
  );
}

function SectionControls({
  orgId,
  framework,
  sectionId,
  period,
  canEdit,
}: {
  orgId: string;
  framework: FrameworkDetail;
  sectionId: string | null;
  period: EvaluationPeriod | null;
  canEdit: boolean;
}) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [toReview, setToReview] = useState(false);
  const [shownSection, setShownSection] = useState(sectionId);
  const [openControl, setOpenControl] = useState<FrameworkControl | null>(null);
  const answers = useQuery({ ...answersQuery(orgId, period?.id ?? ''), enabled: period !== null });
  if (shownSection !== sectionId) {
    setShownSection(sectionId);
    setPage(1);
  }
  const section = framework.sections.find((item) => item.id === sectionId) ?? null;
  const inScope = useMemo(() => {
    if (sectionId === null) return framework.controls;
    const ids = new Set([sectionId]);
    for (const item of framework.sections) if (item.parentId && ids.has(item.parentId)) ids.add(item.id);
    return framework.controls.filter((control) => ids.has(control.sectionId));
  }, [framework, sectionId]);
  const byControl = new Map<string, ControlAnswer>(
    (answers.data ?? []).map((answer) => [answer.controlId, answer]),
  );
  const pendingReview = (control: FrameworkControl) => {
    const answer = byControl.get(control.id);
    return answer?.status === null && answer.suggestion !== null;
  };
  const reviewCount = inScope.filter(pendingReview).length;
  const listed = toReview ? inScope.filter(pendingReview) : inScope;
  const shown = listed.slice((page - 1) * DEFAULT_PAGE_SIZE, page * DEFAULT_PAGE_SIZE);
  return (
    <Stack gap="sm">
      <SectionHeader
        orgId={orgId}
        framework={framework}
        section={section}
        period={period}
        canEdit={canEdit}
      />
      {(reviewCount > 0 || toReview) && (
        <Switch
          label={t('governance.controls.toReview', { count: reviewCount })}
          checked={toReview}
          onChange={(event) => {
            setToReview(event.currentTarget.checked);
            setPage(1);
          }}
        />
      )}
      {listed.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('governance.framework.noControls')}
        </Text>
      ) : (
        <>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('governance.controls.control')}</Table.Th>
                <Table.Th w={200}>{t('governance.controls.status')}</Table.Th>
                <Table.Th w={140}>{t('governance.controls.owner')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((control) => {
                const answer = byControl.get(control.id);
                return (
                  <Table.Tr key={control.id}>
                    <Table.Td>
                      <Anchor
                        component="button"
                        type="button"
                        fw={500}
                        ta="left"
                        onClick={() => setOpenControl(control)}
                        aria-label={t('governance.controls.openNamed', { ref: control.ref })}
                      >
                        {control.ref}
                      </Anchor>
                      {control.title !== control.ref && <Text size="sm">{control.title}</Text>}
                      <Text size="xs" c="dimmed" lineClamp={2}>
                        {control.statement}
                      </Text>
                      <Group gap={4} mt={2}>
                        {control.mandatory && (
                          <Badge size="xs" variant="outline">
                            {t('governance.controls.mandatory')}
                          </Badge>
                        )}
                        {control.alertable && (
                          <Badge size="xs" variant="outline" color="orange">
                            {t('governance.controls.alertable')}
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      {period ? (
                        <StatusBadge status={answer?.status ?? null} suggested={answer?.suggestion?.status} />
                      ) : (
                        '—'
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{answer?.ownerName ?? '—'}</Text>
                      {answer && answer.evidence.length > 0 && (
                        <Text size="xs" c="dimmed">
                          {t('governance.evidence.count', { count: answer.evidence.length })}
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
          <ListPager page={page} pageSize={DEFAULT_PAGE_SIZE} total={listed.length} onChange={setPage} />
        </>
      )}
      {openControl && (
        <ControlPanel
          orgId={orgId}
          framework={framework}
          control={framework.controls.find((item) => item.id === openControl.id) ?? openControl}
          period={period}
          answer={byControl.get(openControl.id) ?? null}
          canEdit={canEdit}
          onClose={() => setOpenControl(null)}
        />
      )}
    </Stack>
  );
}

/** The chosen section (or the framework) with its target tier, which editors set here. */
function SectionHeader({
  orgId,
  framework,
  section,
  period,
  canEdit,
}: {
  orgId: string;
  framework: FrameworkDetail;
  section: FrameworkSection | null;
  period: EvaluationPeriod | null;
  canEdit: boolean;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const target = section ? section.targetTier : framework.targetTier;
  const save = useMutation({
    mutationFn: (targetTier: string | null) =>
      apiFetch(`${frameworkPath(orgId, framework.id)}${section ? `/section/${section.id}` : ''}/target`, {
        method: 'PUT',
        body: { targetTier },
        schema: frameworkDetailSchema,
      }),
    onSuccess: (updated) => {
      queryClient.setQueryData(frameworkQuery(orgId, framework.id).queryKey, updated);
      notifyMessage('governance.framework.targetSaved');
    },
    meta: { errorKey: 'governance.framework.targetFailed' },
  });
  return (
    <Group justify="space-between" align="flex-end">
      <Box>
        <Title order={2} size="h4">
          {section
            ? `${section.ref} ${section.title === section.ref ? '' : section.title}`
            : t('governance.framework.allSections')}
        </Title>
        {section?.description && (
          <Text size="sm" c="dimmed">
            {section.description}
          </Text>
        )}
      </Box>
      {framework.tiers.length > 0 && (
        <Group align="flex-end">
          {canEdit ? (
            <Select
              label={t('governance.framework.targetTier')}
              placeholder={t('governance.framework.noTarget')}
              clearable
              data={framework.tiers}
              value={target}
              disabled={save.isPending}
              onChange={(value) => save.mutate(value)}
            />
          ) : (
            <Text size="sm">
              {t('governance.framework.targetTier')}: {target ?? t('governance.framework.noTarget')}
            </Text>
          )}
          {period && (
            <AssessedTier
              orgId={orgId}
              framework={framework}
              section={section}
              period={period}
              canEdit={canEdit}
            />
          )}
        </Group>
      )}
    </Group>
  );
}

/** The maturity tier assessed in the period for the section or the framework; editable while in progress. */
function AssessedTier({
  orgId,
  framework,
  section,
  period,
  canEdit,
}: {
  orgId: string;
  framework: FrameworkDetail;
  section: FrameworkSection | null;
  period: EvaluationPeriod;
  canEdit: boolean;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const tier = period.tiers[section?.id ?? 'framework'] ?? null;
  const save = useMutation({
    mutationFn: (value: string | null) =>
      apiFetch(`${periodPath(orgId, period.id)}/tier`, {
        method: 'PUT',
        body: { sectionId: section?.id ?? null, tier: value },
        schema: evaluationPeriodSchema,
      }),
    onSuccess: async () => {
      notifyMessage('governance.framework.tierSaved');
      await queryClient.invalidateQueries({ queryKey: periodsQuery(orgId, framework.id).queryKey });
    },
    meta: { errorKey: 'governance.framework.tierFailed' },
  });
  const label = t('governance.framework.assessedTier', { name: period.name });
  if (!canEdit || period.state !== 'IN_PROGRESS') {
    return (
      <Text size="sm">
        {label}: {tier ?? t('governance.framework.notAssessed')}
      </Text>
    );
  }
  return (
    <Select
      label={label}
      placeholder={t('governance.framework.notAssessed')}
      clearable
      data={framework.tiers}
      value={tier}
      disabled={save.isPending}
      onChange={(value) => save.mutate(value)}
    />
  );
}

/** The inherent risk profile (FFIEC CAT) as rated in the period: a level per category. */
function RiskProfilePanel({
  orgId,
  framework,
  period,
  canEdit,
}: {
  orgId: string;
  framework: FrameworkDetail;
  period: EvaluationPeriod;
  canEdit: boolean;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const profile = framework.riskProfile!;
  const editable = canEdit && period.state === 'IN_PROGRESS';
  const save = useMutation({
    mutationFn: (levels: Record<string, string>) =>
      apiFetch(`${periodPath(orgId, period.id)}/risk-profile`, {
        method: 'PUT',
        body: { levels },
        schema: evaluationPeriodSchema,
      }),
    onSuccess: async () => {
      notifyMessage('governance.riskProfile.saved');
      await queryClient.invalidateQueries({ queryKey: periodsQuery(orgId, framework.id).queryKey });
    },
    meta: { errorKey: 'governance.riskProfile.failed' },
  });
  const rate = (category: string, level: string | null) => {
    const levels = { ...period.riskProfile };
    if (level === null) delete levels[category];
    else levels[category] = level;
    save.mutate(levels);
  };
  return (
    <Paper withBorder p="sm" component="section" aria-label={t('governance.riskProfile.title')}>
      <Title order={2} size="h5" mb="xs">
        {t('governance.riskProfile.title')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }}>
        {profile.categories.map((category) =>
          editable ? (
            <Select
              key={category.ref}
              label={category.title}
              placeholder={t('governance.riskProfile.unrated')}
              clearable
              data={profile.levels}
              value={period.riskProfile[category.ref] ?? null}
              disabled={save.isPending}
              onChange={(value) => rate(category.ref, value)}
            />
          ) : (
            <Stack key={category.ref} gap={2}>
              <Text size="sm" fw={500}>
                {category.title}
              </Text>
              <Text size="sm">{period.riskProfile[category.ref] ?? t('governance.riskProfile.unrated')}</Text>
            </Stack>
          ),
        )}
      </SimpleGrid>
    </Paper>
  );
}
