import {
  Alert,
  Anchor,
  Badge,
  Button,
  EmptyState,
  Group,
  Modal,
  MultiSelect,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconClipboardCheck, IconDownload, IconPlus } from '@tabler/icons-react';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ASSESSMENT_KINDS,
  ASSESSMENT_STATES,
  assessmentDetailSchema,
  assessmentListSchema,
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  RISK_LEVELS,
  type AssessmentDetail,
  type AssessmentKind,
  type AssessmentState,
  type RiskLevel,
  type RiskModule,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch, apiFetchFile, ApiRequestError, orgPath } from '../../lib/api';
import { saveBlob } from '../../lib/download';
import { errorMessage, notifyError } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import { ListPager } from '../../shell/list-pager';
import { ListStates, QueryStates } from '../../shell/query-status';
import { riskKey, risksQuery } from './api';
import { inventoryQuery } from './inventory-page';
import { LevelBadge, ModuleBadges, useRiskModules } from './module-badges';

const assessmentPath = (orgId: string, ref: string) =>
  `${orgPath(orgId)}/risk-assessment/${encodeURIComponent(ref)}`;

/** GET /risk-assessments. */
const assessmentsQuery = (
  orgId: string,
  params: { state?: AssessmentState; modules: RiskModule[]; pageNumber: number },
) =>
  queryOptions({
    queryKey: [...riskKey(orgId), 'assessments', params] as const,
    queryFn: ({ signal }) => {
      const search = new URLSearchParams({
        pageSize: String(DEFAULT_PAGE_SIZE),
        pageNumber: String(params.pageNumber),
      });
      if (params.state) search.set('state', params.state);
      search.set('modules', params.modules.join(','));
      return apiFetch(`${orgPath(orgId)}/risk-assessments?${search}`, {
        schema: assessmentListSchema,
        signal,
      });
    },
    placeholderData: keepPreviousData,
  });

const assessmentQuery = (orgId: string, ref: string) =>
  queryOptions({
    queryKey: [...riskKey(orgId), 'assessment', ref.toUpperCase()] as const,
    queryFn: ({ signal }) => apiFetch(assessmentPath(orgId, ref), { schema: assessmentDetailSchema, signal }),
  });

const STATE_COLORS: Record<AssessmentState, string> = { DRAFT: 'gray', SAVED: 'blue', COMPLETED: 'green' };

function StateBadge({ state }: { state: AssessmentState }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATE_COLORS[state]} variant="light">
      {t(`risk.assessment.states.${state}`)}
    </Badge>
  );
}

/** Risk and inventory assessments (/risk/assessments). */
export function AssessmentsPage() {
  const { t } = useTranslation();
  const allowed = useHasPermission('RISK_VIEW');
  const held = useRiskModules();
  return (
    <GatedPage title={t('nav.tabs.riskAssessments')} allowed={allowed && held.length > 0} maw={1400}>
      <AssessmentList />
    </GatedPage>
  );
}

function AssessmentList() {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canEdit = useHasPermission('RISK_EDIT');
  const held = useRiskModules();
  const [modules, setModules] = useState<RiskModule[]>(held);
  const [state, setState] = useState<AssessmentState | undefined>();
  const [pageNumber, setPageNumber] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const list = useQuery(assessmentsQuery(orgId, { state, modules, pageNumber }));
  return (
    <Stack gap="md">
      <ModuleBadges
        offered={held}
        selected={modules}
        onChange={(value) => {
          setModules(value);
          setPageNumber(1);
        }}
      />
      <Group justify="space-between" align="flex-end">
        <Select
          label={t('risk.assessment.state')}
          data={ASSESSMENT_STATES.map((value) => ({ value, label: t(`risk.assessment.states.${value}`) }))}
          value={state ?? null}
          onChange={(value) => {
            setState((value as AssessmentState | null) ?? undefined);
            setPageNumber(1);
          }}
          clearable
          placeholder={t('risk.assessment.allStates')}
        />
        {canEdit && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setOpen('new')}>
            {t('risk.assessment.new')}
          </Button>
        )}
      </Group>
      <ListStates
        query={list}
        loadingLabel={t('risk.loading')}
        failedTitle={t('risk.assessment.loadFailed')}
        empty={
          <EmptyState
            icon={<IconClipboardCheck size={32} stroke={1.5} />}
            withIndicatorBackground
            title={t('risk.assessment.emptyTitle')}
            description={state ? t('risk.noMatch') : t('risk.assessment.emptyMessage')}
          />
        }
      >
        {(data) => (
          <>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('risk.publicId')}</Table.Th>
                  <Table.Th>{t('risk.name')}</Table.Th>
                  <Table.Th>{t('risk.assessment.kind')}</Table.Th>
                  <Table.Th>{t('risk.modules.label')}</Table.Th>
                  <Table.Th>{t('risk.assessment.state')}</Table.Th>
                  <Table.Th>{t('risk.assessment.items')}</Table.Th>
                  <Table.Th>{t('risk.inventory.inherentRisk')}</Table.Th>
                  <Table.Th>{t('risk.inventory.residualRisk')}</Table.Th>
                  <Table.Th>{t('risk.assessment.completedOn')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.items.map((assessment) => (
                  <Table.Tr key={assessment.id}>
                    <Table.Td>
                      <Anchor component="button" type="button" onClick={() => setOpen(assessment.publicId)}>
                        {assessment.publicId}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{assessment.name}</Table.Td>
                    <Table.Td>{t(`risk.assessment.kinds.${assessment.kind}`)}</Table.Td>
                    <Table.Td>{t(`risk.modules.${assessment.module}`)}</Table.Td>
                    <Table.Td>
                      <StateBadge state={assessment.state} />
                    </Table.Td>
                    <Table.Td>{assessment.itemCount}</Table.Td>
                    <Table.Td>
                      <LevelBadge level={assessment.inherentRisk.value} />
                    </Table.Td>
                    <Table.Td>
                      <LevelBadge level={assessment.residualRisk.value} />
                    </Table.Td>
                    <Table.Td>{assessment.completedOn?.slice(0, 10) ?? '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <ListPager
              page={pageNumber}
              pageSize={DEFAULT_PAGE_SIZE}
              total={data.total}
              onChange={setPageNumber}
            />
          </>
        )}
      </ListStates>
      {open && <AssessmentDialog orgId={orgId} refId={open} onClose={() => setOpen(null)} />}
    </Stack>
  );
}

function AssessmentDialog({ orgId, refId, onClose }: { orgId: string; refId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const creating = refId === 'new';
  const assessment = useQuery({ ...assessmentQuery(orgId, refId), enabled: !creating });
  return (
    <Modal opened onClose={onClose} title={creating ? t('risk.assessment.new') : refId} size="xl" centered>
      {creating ? (
        <AssessmentForm orgId={orgId} assessment={null} onClose={onClose} />
      ) : (
        <QueryStates
          query={assessment}
          loadingLabel={t('risk.loading')}
          failedTitle={t('risk.assessment.loadFailed')}
        >
          {(data) =>
            data.state === 'COMPLETED' ? (
              <CompletedAssessment orgId={orgId} assessment={data} />
            ) : (
              <AssessmentForm orgId={orgId} assessment={data} onClose={onClose} />
            )
          }
        </QueryStates>
      )}
    </Modal>
  );
}

/**
 * The register's items of the assessment's module to choose from: risks of the module, or inventory
 * items of its kinds (vendors for Third-Party Risk, systems and applications otherwise).
 */
function useCoverable(orgId: string, kind: AssessmentKind, module: RiskModule) {
  const params = { q: '', sortBy: 'number', desc: false, pageSize: MAX_PAGE_SIZE, pageNumber: 1 };
  const riskList = useQuery({
    ...risksQuery(orgId, false, { ...params, modules: [module], state: 'ACTIVE', exceptions: 'ALL' }),
    enabled: kind === 'RISK',
  });
  const inventory = useQuery({ ...inventoryQuery(orgId, false, params), enabled: kind === 'INVENTORY' });
  const vendors = module === 'THIRD_PARTY_RISK';
  const items =
    (kind === 'RISK'
      ? riskList.data?.items
      : inventory.data?.items.filter((item) => (item.kind === 'VENDOR') === vendors)) ?? [];
  return items.map((item) => ({ value: item.id, label: `${item.publicId} ${item.name}` }));
}

function PdfButton({ orgId, assessment }: { orgId: string; assessment: AssessmentDetail }) {
  const { t } = useTranslation();
  const download = useMutation({
    mutationFn: async () =>
      saveBlob(
        await apiFetchFile(`${assessmentPath(orgId, assessment.publicId)}/pdf`, {
          accept: 'application/pdf',
        }),
        `${assessment.publicId}.pdf`,
      ),
    onError: (error) => notifyError(error, 'risk.assessment.pdfFailed'),
    meta: { notifyError: false },
  });
  return (
    <Button
      variant="default"
      leftSection={<IconDownload size={16} />}
      loading={download.isPending}
      onClick={() => download.mutate()}
    >
      {t('risk.assessment.downloadPdf')}
    </Button>
  );
}

function AssessmentForm({
  orgId,
  assessment,
  onClose,
}: {
  orgId: string;
  assessment: AssessmentDetail | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const canEdit = useHasPermission('RISK_EDIT');
  const held = useRiskModules();
  const [kind, setKind] = useState<AssessmentKind>(assessment?.kind ?? 'RISK');
  const [module, setModule] = useState<RiskModule>(assessment?.module ?? held[0] ?? 'INFORMATION_SECURITY');
  const [name, setName] = useState(assessment?.name ?? '');
  const [executiveSummary, setExecutiveSummary] = useState(assessment?.executiveSummary ?? '');
  const [itemIds, setItemIds] = useState(assessment?.items.map((item) => item.id) ?? []);
  const override = (score: 'inherentRisk' | 'residualRisk') =>
    assessment?.[score].overridden ? assessment[score].value : null;
  const [inherentRisk, setInherentRisk] = useState<RiskLevel | null>(override('inherentRisk'));
  const [residualRisk, setResidualRisk] = useState<RiskLevel | null>(override('residualRisk'));
  const [nameChecked, setNameChecked] = useState(false);
  const [refusal, setRefusal] = useState<{ field?: string; message: string } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const coverable = useCoverable(orgId, kind, module);
  const refresh = () => queryClient.invalidateQueries({ queryKey: riskKey(orgId) });

  // The assessment as last saved: completing saves first, so a refused completion leaves it saved.
  const [current, setCurrent] = useState(assessment);
  const body = { name: name.trim(), executiveSummary, itemIds, inherentRisk, residualRisk };
  const saveDraft = async () => {
    const saved = await apiFetch(
      current ? assessmentPath(orgId, current.publicId) : `${orgPath(orgId)}/risk-assessment`,
      {
        method: current ? 'PATCH' : 'POST',
        body: current ? { ...body, version: current.version } : { ...body, kind, module },
        schema: assessmentDetailSchema,
      },
    );
    setCurrent(saved);
    return saved;
  };
  const save = useMutation({
    mutationFn: saveDraft,
    onSuccess: async (saved) => {
      await refresh();
      notifications.show({ color: 'green', message: t('risk.saved', { id: saved.publicId }) });
      onClose();
    },
    meta: { errorKey: 'risk.assessment.saveFailed' },
  });
  const complete = useMutation({
    mutationFn: async () => {
      const saved = await saveDraft();
      return apiFetch(`${assessmentPath(orgId, saved.publicId)}/complete`, {
        method: 'POST',
        body: { version: saved.version },
        schema: assessmentDetailSchema,
      });
    },
    onSuccess: async (completed) => {
      await refresh();
      notifications.show({
        color: 'green',
        message: t('risk.assessment.completed', { id: completed.publicId }),
      });
      onClose();
    },
    onError: async (error) => {
      setConfirming(false);
      await refresh();
      if (error instanceof ApiRequestError && error.error.type === 'ValidatorException') {
        setRefusal({ field: error.error.field, message: errorMessage(error.error, t) });
      } else notifyError(error, 'risk.assessment.completeFailed');
    },
    meta: { notifyError: false },
  });
  const submit = (action: 'save' | 'complete') => {
    setNameChecked(true);
    setRefusal(null);
    if (!name.trim()) return;
    if (action === 'save') save.mutate();
    else setConfirming(true);
  };
  const fieldError = (field: string) => (refusal?.field === field ? refusal.message : undefined);
  const levelSelect = (
    score: 'inherentRisk' | 'residualRisk',
    value: RiskLevel | null,
    set: (level: RiskLevel | null) => void,
  ) => {
    const recommended = current?.[score].recommended ?? null;
    return (
      <Select
        label={t(`risk.assessment.aggregate.${score}`)}
        description={
          recommended
            ? t('risk.assessment.recommended', { level: t(`risk.levels.${recommended}`) })
            : t('risk.assessment.noRecommendation')
        }
        data={RISK_LEVELS.map((level) => ({ value: level, label: t(`risk.levels.${level}`) }))}
        value={value}
        onChange={(level) => set(level as RiskLevel | null)}
        clearable
        placeholder={t('risk.assessment.useRecommendation')}
        error={fieldError(score)}
        disabled={!canEdit}
      />
    );
  };
  return (
    <Stack gap="md">
      {current && (
        <Group justify="space-between">
          <StateBadge state={current.state} />
          <PdfButton orgId={orgId} assessment={current} />
        </Group>
      )}
      {!current && (
        <SegmentedControl
          aria-label={t('risk.assessment.kind')}
          data={ASSESSMENT_KINDS.map((value) => ({ value, label: t(`risk.assessment.kinds.${value}`) }))}
          value={kind}
          onChange={(value) => {
            setKind(value as AssessmentKind);
            setItemIds([]);
          }}
        />
      )}
      <Select
        label={t('risk.modules.label')}
        data={(current ? [current.module] : held).map((value) => ({
          value,
          label: t(`risk.modules.${value}`),
        }))}
        value={module}
        onChange={(value) => {
          if (!value) return;
          setModule(value as RiskModule);
          setItemIds([]);
        }}
        allowDeselect={false}
        disabled={!!current || !canEdit}
      />
      <TextInput
        label={t('risk.name')}
        required
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        error={nameChecked && !name.trim() ? t('risk.nameRequired') : undefined}
        disabled={!canEdit}
      />
      <MultiSelect
        label={t(kind === 'RISK' ? 'risk.assessment.coveredRisks' : 'risk.assessment.coveredInventory')}
        data={[
          ...coverable,
          ...(current?.items ?? [])
            .filter((item) => !coverable.some((option) => option.value === item.id))
            .map((item) => ({ value: item.id, label: `${item.publicId} ${item.name}` })),
        ]}
        value={itemIds}
        onChange={setItemIds}
        searchable
        clearable
        error={fieldError('itemIds')}
        disabled={!canEdit}
      />
      <SimpleGrid cols={2}>
        {levelSelect('inherentRisk', inherentRisk, setInherentRisk)}
        {levelSelect('residualRisk', residualRisk, setResidualRisk)}
      </SimpleGrid>
      <Textarea
        label={t('risk.assessment.executiveSummary')}
        autosize
        minRows={4}
        value={executiveSummary}
        onChange={(event) => setExecutiveSummary(event.currentTarget.value)}
        error={fieldError('executiveSummary')}
        disabled={!canEdit}
      />
      {refusal && (
        <Alert color="red" title={t('risk.assessment.cannotComplete')}>
          {refusal.message}
        </Alert>
      )}
      {canEdit && (
        <Group justify="flex-end">
          <Button variant="default" loading={save.isPending} onClick={() => submit('save')}>
            {t('risk.assessment.saveDraft')}
          </Button>
          <Button
            leftSection={<IconCheck size={16} />}
            loading={complete.isPending}
            onClick={() => submit('complete')}
          >
            {t('risk.assessment.complete')}
          </Button>
        </Group>
      )}
      <ConfirmDialog
        opened={confirming}
        title={t('risk.assessment.completeTitle')}
        message={t('risk.assessment.completeConfirm')}
        confirmLabel={t('risk.assessment.complete')}
        loading={complete.isPending}
        onConfirm={() => complete.mutate()}
        onCancel={() => setConfirming(false)}
      />
    </Stack>
  );
}

/** A completed assessment: published read-only. */
function CompletedAssessment({ orgId, assessment }: { orgId: string; assessment: AssessmentDetail }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Group gap="xs">
          <StateBadge state={assessment.state} />
          <Text size="sm" c="dimmed">
            {t('risk.assessment.completedBy', {
              date: assessment.completedOn?.slice(0, 10) ?? '',
              name: assessment.completedBy?.name ?? '—',
            })}
          </Text>
        </Group>
        <PdfButton orgId={orgId} assessment={assessment} />
      </Group>
      <Alert color="blue">{t('risk.assessment.readOnly')}</Alert>
      <Title order={3}>{assessment.name}</Title>
      <Text size="sm" c="dimmed">
        {t(`risk.assessment.kinds.${assessment.kind}`)}
      </Text>
      <Title order={4}>{t('risk.assessment.executiveSummary')}</Title>
      <Text style={{ whiteSpace: 'pre-line' }}>{assessment.executiveSummary}</Text>
      <SimpleGrid cols={2}>
        <Stack gap={4}>
          <Text fw={600}>{t('risk.assessment.aggregate.inherentRisk')}</Text>
          <LevelBadge level={assessment.inherentRisk.value} />
        </Stack>
        <Stack gap={4}>
          <Text fw={600}>{t('risk.assessment.aggregate.residualRisk')}</Text>
          <LevelBadge level={assessment.residualRisk.value} />
        </Stack>
      </SimpleGrid>
      <Title order={4}>
        {t(assessment.kind === 'RISK' ? 'risk.assessment.coveredRisks' : 'risk.assessment.coveredInventory')}
      </Title>
      {assessment.items.length === 0 ? (
        <Text c="dimmed">{t('risk.assessment.noItems')}</Text>
      ) : (
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('risk.publicId')}</Table.Th>
              <Table.Th>{t('risk.name')}</Table.Th>
              <Table.Th>{t('risk.inventory.inherentRisk')}</Table.Th>
              <Table.Th>{t('risk.inventory.residualRisk')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {assessment.items.map((item) => (
              <Table.Tr key={item.id}>
                <Table.Td>{item.publicId}</Table.Td>
                <Table.Td>{item.name}</Table.Td>
                <Table.Td>
                  <LevelBadge level={item.inherentRisk} />
                </Table.Td>
                <Table.Td>
                  <LevelBadge level={item.residualRisk} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
