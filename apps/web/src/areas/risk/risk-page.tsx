import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  List,
  Modal,
  MultiSelect,
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
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import {
  ERM_CONNECTIONS,
  RISK_CAUSES,
  RISK_CONSEQUENCES,
  RISK_EVENT_TYPES,
  RECOMMENDED_RISK_SCORES,
  RISK_MODULES,
  RISK_NAME_MAX_LENGTH,
  RISK_RESPONSES,
  riskDetailSchema,
  riskRecommendations,
  TIMEZONES,
  type ControlStrength,
  type RiskDetail,
  type RiskModule,
} from '@vigil/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch, orgPath } from '../../lib/api';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import { QueryStates } from '../../shell/query-status';
import { tagsQuery } from '../settings/metadata-queries';
import { useTicketPeople } from '../tickets/ticket-badges';
import { controlsQuery, riskKey, riskListPath, riskListsQuery, riskPath, riskQuery, risksQuery } from './api';
import { inventoryItemQuery, inventoryQuery } from './inventory-page';
import { useRiskModules } from './module-badges';
import { useLibraryCopy, useLibraryEditor } from './register-list';
import { ReviewScheduleCard, STATUS_COLORS } from './review-schedule';
import { ControlTriggersCard, RevisitNotice, RiskIncidentsCard } from './risk-links';
import { AuditHistory } from './audit-history';
import { needsReason, ScorePanel, type ScoresDraft } from './score-panel';

/**
 * One risk of the register or of the library (`ref` "new" to create one; library risks are written by
 * provider administrators, read and copied by others).
 */
export function RiskPage({ refId, library }: { refId: string; library: boolean }) {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const allowed = useHasPermission('RISK_VIEW');
  const libraryEditor = useLibraryEditor();
  const creating = refId === 'new' && (!library || libraryEditor);
  const risk = useQuery({ ...riskQuery(orgId, refId, library), enabled: !creating && allowed });
  return (
    <GatedPage title={creating ? t('risk.new') : (risk.data?.name ?? refId)} allowed={allowed} maw={1200}>
      {creating ? (
        <RiskForm orgId={orgId} risk={null} library={library} />
      ) : (
        <QueryStates query={risk} loadingLabel={t('risk.loading')} failedTitle={t('risk.loadFailed')}>
          {(data) =>
            library ? <LibraryRisk orgId={orgId} risk={data} /> : <RiskForm orgId={orgId} risk={data} />
          }
        </QueryStates>
      )}
    </GatedPage>
  );
}

interface Draft {
  name: string;
  definition: string;
  keyRisk: boolean;
  showInPreview: boolean;
  modules: RiskModule[];
  riskEventType: string | null;
  riskEventSubType: string;
  causeCategory: string | null;
  causeSubType: string;
  consequence: string | null;
  consequenceSubType: string;
  ermConnections: string[];
  response: string | null;
  mitigationPlan: string;
  businessOwnerId: string | null;
  businessUnitIds: string[];
  watcherIds: string[];
  auditIds: string[];
  policyIds: string[];
  tagIds: string[];
  controlIds: string[];
  relatedRiskIds: string[];
  systemIds: string[];
  lineItemIds: string[];
  exception: boolean;
  dueDate: string;
  timeZoneId: string | null;
  scores: ScoresDraft;
}

function draftOf(risk: RiskDetail | null, modules: RiskModule[]): Draft {
  return {
    name: risk?.name ?? '',
    definition: risk?.definition ?? '',
    keyRisk: risk?.keyRisk ?? false,
    showInPreview: risk?.showInPreview ?? false,
    modules: risk?.modules ?? modules.slice(0, 1),
    riskEventType: risk?.riskEventType ?? null,
    riskEventSubType: risk?.riskEventSubType ?? '',
    causeCategory: risk?.causeCategory ?? null,
    causeSubType: risk?.causeSubType ?? '',
    consequence: risk?.consequence ?? null,
    consequenceSubType: risk?.consequenceSubType ?? '',
    ermConnections: risk?.ermConnections ?? [],
    response: risk?.response ?? null,
    mitigationPlan: risk?.mitigationPlan ?? '',
    businessOwnerId: risk?.businessOwner?.id ?? null,
    businessUnitIds: risk?.businessUnits.map((item) => item.id) ?? [],
    watcherIds: risk?.watchers.map((item) => item.id) ?? [],
    auditIds: risk?.audits.map((item) => item.id) ?? [],
    policyIds: risk?.policies.map((item) => item.id) ?? [],
    tagIds: risk?.tags.map((item) => item.id) ?? [],
    controlIds: risk?.controls.map((item) => item.id) ?? [],
    relatedRiskIds: risk?.relatedRisks.map((item) => item.id) ?? [],
    systemIds: risk?.systems.map((item) => item.id) ?? [],
    lineItemIds: risk?.lineItems.map((item) => item.id) ?? [],
    exception: risk?.exception ?? false,
    dueDate: risk?.dueDate ?? '',
    timeZoneId: risk?.timeZoneId ?? null,
    scores: {
      potentialImpact: {
        value: risk?.potentialImpact.value ?? null,
        reason: risk?.potentialImpact.overrideReason ?? '',
      },
      likelihood: risk?.likelihood ?? null,
      inherentRisk: {
        value: risk?.inherentRisk.value ?? null,
        reason: risk?.inherentRisk.overrideReason ?? '',
      },
      controlStrength: {
        value: risk?.controlStrength.value ?? null,
        reason: risk?.controlStrength.overrideReason ?? '',
      },
      residualRisk: {
        value: risk?.residualRisk.value ?? null,
        reason: risk?.residualRisk.overrideReason ?? '',
      },
      riskDirection: risk?.riskDirection ?? null,
    },
  };
}

const ALL = { q: '', sortBy: 'number', desc: false, pageSize: 500, pageNumber: 1 };

/**
 * A risk of the register or of the library; a library risk names none of an organisation's lists,
 * people, systems or dates, and links library controls and risks.
 */
function RiskForm({
  orgId,
  risk,
  library = false,
}: {
  orgId: string;
  risk: RiskDetail | null;
  library?: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const held = useRiskModules();
  const offered = library ? [...RISK_MODULES] : held;
  const canEdit = useHasPermission('RISK_EDIT');
  const [draft, setDraft] = useState<Draft>(() => draftOf(risk, offered));
  const [checked, setChecked] = useState(false);
  const [confirmingLinks, setConfirmingLinks] = useState(false);
  const [confirmingResync, setConfirmingResync] = useState(false);
  const set =
    <K extends keyof Draft>(key: K) =>
    (value: Draft[K]) =>
      setDraft((current) => ({ ...current, [key]: value }));

  const lists = useQuery({ ...riskListsQuery(orgId), enabled: !library });
  const tags = useQuery({
    ...tagsQuery(orgId, { desc: false, pageNumber: 1, pageSize: 500 }),
    enabled: !library,
  });
  const people = useTicketPeople(orgId);
  const controls = useQuery(controlsQuery(orgId, library, ALL));
  const inventory = useQuery({ ...inventoryQuery(orgId, false, ALL), enabled: !library });
  const chosenSystems = useQueries({
    queries: draft.systemIds.map((id) => inventoryItemQuery(orgId, id, false)),
  });
  const lineItemOptions = chosenSystems
    .flatMap((query) =>
      (query.data?.lineItems ?? []).map((line) => ({
        value: line.id,
        label: `${query.data!.publicId} ${query.data!.name}: ${line.name}`,
      })),
    )
    .concat(
      (risk?.lineItems ?? []).map((line) => ({
        value: line.id,
        label: `${line.itemPublicId} ${line.itemName}: ${line.name}`,
      })),
    )
    .filter((option, index, all) => all.findIndex((other) => other.value === option.value) === index);
  const risks = useQuery(
    risksQuery(orgId, library, { ...ALL, modules: offered, state: 'ACTIVE', exceptions: 'ALL' }),
  );
  const options = (kind: string) =>
    (lists.data ?? [])
      .filter((item) => item.kind === kind)
      .map((item) => ({ value: item.id, label: item.name }));
  const linkedScores = (controls.data?.items ?? [])
    .filter((control) => draft.controlIds.includes(control.id))
    .map((control) => control.overallScore.value as ControlStrength | null);
  // The chosen systems' scores: from the inventory list, else (before it loads) as the risk holds them.
  const linkedSystems = draft.systemIds.flatMap(
    (id) =>
      inventory.data?.items.find((item) => item.id === id) ??
      risk?.systems.find((system) => system.id === id) ??
      [],
  );
  const recommended = riskRecommendations(
    {
      potentialImpact: draft.scores.potentialImpact.value,
      likelihood: draft.scores.likelihood,
      inherentRisk: draft.scores.inherentRisk.value,
      controlStrength: draft.scores.controlStrength.value,
      residualRisk: draft.scores.residualRisk.value,
    },
    linkedScores,
    linkedSystems,
  );

  const body = () => ({
    name: draft.name.trim(),
    definition: draft.definition,
    keyRisk: draft.keyRisk,
    showInPreview: draft.showInPreview,
    modules: draft.modules,
    riskEventType: draft.riskEventType,
    riskEventSubType: draft.riskEventSubType || null,
    causeCategory: draft.causeCategory,
    causeSubType: draft.causeSubType || null,
    consequence: draft.consequence,
    consequenceSubType: draft.consequenceSubType || null,
    ermConnections: draft.ermConnections,
    response: draft.response,
    mitigationPlan: draft.mitigationPlan,
    businessOwnerId: draft.businessOwnerId,
    businessUnitIds: draft.businessUnitIds,
    watcherIds: draft.watcherIds,
    auditIds: draft.auditIds,
    policyIds: draft.policyIds,
    tagIds: draft.tagIds,
    controlIds: draft.controlIds,
    relatedRiskIds: draft.relatedRiskIds,
    systemIds: draft.systemIds,
    lineItemIds: draft.lineItemIds,
    exception: draft.exception,
    dueDate: draft.dueDate || null,
    timeZoneId: draft.timeZoneId,
    scores: {
      potentialImpact: {
        value: draft.scores.potentialImpact.value,
        overrideReason: draft.scores.potentialImpact.reason || null,
      },
      likelihood: draft.scores.likelihood,
      riskDirection: draft.scores.riskDirection,
      inherentRisk: {
        value: draft.scores.inherentRisk.value,
        overrideReason: draft.scores.inherentRisk.reason || null,
      },
      controlStrength: {
        value: draft.scores.controlStrength.value,
        overrideReason: draft.scores.controlStrength.reason || null,
      },
      residualRisk: {
        value: draft.scores.residualRisk.value,
        overrideReason: draft.scores.residualRisk.reason || null,
      },
    },
    ...(risk && { version: risk.version }),
  });
  const save = useMutation({
    mutationFn: () =>
      apiFetch(
        risk
          ? riskPath(orgId, risk.id, library)
          : library
            ? riskListPath(orgId, 'risks', true)
            : `${orgPath(orgId)}/risk`,
        {
          method: risk ? 'PATCH' : 'POST',
          body: body(),
          schema: riskDetailSchema,
        },
      ),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: riskKey(orgId) });
      notifications.show({ color: 'green', message: t('risk.saved', { id: saved.publicId }) });
      if (!risk) {
        await navigate({
          to: library ? '/risk/risks/library/$ref' : '/risk/risks/register/$ref',
          params: { ref: saved.publicId },
        });
      } else setDraft(draftOf(saved, held));
    },
    meta: { errorKey: 'risk.saveFailed' },
  });
  const changeState = useMutation({
    mutationFn: (confirmRemoveLinks: boolean) =>
      apiFetch(`${riskPath(orgId, risk!.id, library)}/state`, {
        method: 'PUT',
        body: {
          version: risk!.version,
          state: risk!.state === 'ACTIVE' ? 'INACTIVE' : 'ACTIVE',
          confirmRemoveLinks,
        },
        schema: riskDetailSchema,
      }),
    onSuccess: async (saved) => {
      setConfirmingLinks(false);
      await queryClient.invalidateQueries({ queryKey: riskKey(orgId) });
      setDraft(draftOf(saved, held));
    },
    meta: { errorKey: 'risk.saveFailed' },
  });
  const resync = useMutation({
    mutationFn: () =>
      apiFetch(`${riskPath(orgId, risk!.id)}/resync`, {
        method: 'POST',
        body: { version: risk!.version },
        schema: riskDetailSchema,
      }),
    onSuccess: async (saved) => {
      setConfirmingResync(false);
      await queryClient.invalidateQueries({ queryKey: riskKey(orgId) });
      setDraft(draftOf(saved, held));
      notifications.show({ color: 'green', message: t('risk.resynced', { id: saved.publicId }) });
    },
    onError: () => setConfirmingResync(false),
    meta: { errorKey: 'risk.resyncFailed' },
  });
  const reasonsMissing = RECOMMENDED_RISK_SCORES.some(
    (score) => needsReason(draft.scores[score], recommended[score]) && !draft.scores[score].reason.trim(),
  );
  const planMissing = draft.response === 'MITIGATE' && !draft.mitigationPlan.trim();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (draft.name.trim() && draft.modules.length > 0 && !reasonsMissing && !planMissing) save.mutate();
  };
  const toggleState = () => {
    if (risk?.state === 'ACTIVE' && risk.relatedRisks.length > 0) setConfirmingLinks(true);
    else changeState.mutate(false);
  };
  const selectable = (kind: string, values: readonly string[]) =>
    values.map((value) => ({ value, label: t(`risk.${kind}.${value}`) }));

  return (
    <>
      <form onSubmit={submit} noValidate>
        <fieldset disabled={!canEdit} style={{ border: 0, padding: 0, margin: 0 }}>
          <Stack gap="lg">
            {risk && (
              <Group justify="space-between">
                <Group gap="xs">
                  <Badge size="lg" variant="outline">
                    {risk.publicId}
                  </Badge>
                  <Badge size="lg" color={risk.state === 'ACTIVE' ? 'green' : 'gray'}>
                    {t(`risk.states.${risk.state}`)}
                  </Badge>
                  {risk.copiedFromId && <Badge variant="light">{t('risk.fromLibrary')}</Badge>}
                  {risk.dueDateStatus && (
                    <Badge size="lg" variant="light" color={STATUS_COLORS[risk.dueDateStatus]}>
                      {t('risk.dueDateStatus', {
                        date: risk.dueDate,
                        status: t(`risk.review.statuses.${risk.dueDateStatus}`),
                      })}
                    </Badge>
                  )}
                  {risk.revisitScores && (
                    <Badge size="lg" color="orange" variant="light">
                      {t('risk.links.revisitBadge')}
                    </Badge>
                  )}
                </Group>
                {canEdit && (
                  <Group gap="xs">
                    {risk.copiedFromId && (
                      <Button variant="default" onClick={() => setConfirmingResync(true)}>
                        {t('risk.resync')}
                      </Button>
                    )}
                    <Button variant="default" onClick={toggleState} loading={changeState.isPending}>
                      {t(risk.state === 'ACTIVE' ? 'risk.deactivate' : 'risk.activate')}
                    </Button>
                  </Group>
                )}
              </Group>
            )}
            <Card withBorder>
              <Stack gap="sm">
                <TextInput
                  label={t('risk.name')}
                  required
                  maxLength={RISK_NAME_MAX_LENGTH}
                  value={draft.name}
                  onChange={(event) => set('name')(event.currentTarget.value)}
                  error={checked && !draft.name.trim() ? t('risk.nameRequired') : undefined}
                />
                <Textarea
                  label={t('risk.definition')}
                  autosize
                  minRows={2}
                  value={draft.definition}
                  onChange={(event) => set('definition')(event.currentTarget.value)}
                />
                <Group>
                  <Checkbox
                    label={t('risk.keyRisk')}
                    checked={draft.keyRisk}
                    onChange={(event) => set('keyRisk')(event.currentTarget.checked)}
                  />
                  <Checkbox
                    label={t('risk.showInPreview')}
                    checked={draft.showInPreview}
                    onChange={(event) => set('showInPreview')(event.currentTarget.checked)}
                  />
                  {!library && (
                    <Checkbox
                      label={t('risk.exception')}
                      checked={draft.exception}
                      onChange={(event) => set('exception')(event.currentTarget.checked)}
                    />
                  )}
                </Group>
                <MultiSelect
                  label={t('risk.modules.label')}
                  required
                  data={offered.map((value) => ({ value, label: t(`risk.modules.${value}`) }))}
                  value={draft.modules}
                  onChange={(value) => set('modules')(value as RiskModule[])}
                  error={checked && draft.modules.length === 0 ? t('risk.modulesRequired') : undefined}
                />
                <SimpleGrid cols={{ base: 1, md: 3 }}>
                  <FactorField
                    label={t('risk.eventType')}
                    subLabel={t('risk.eventSubType')}
                    data={selectable('eventTypes', RISK_EVENT_TYPES)}
                    value={draft.riskEventType}
                    onChange={set('riskEventType')}
                    subValue={draft.riskEventSubType}
                    onSubChange={set('riskEventSubType')}
                  />
                  <FactorField
                    label={t('risk.cause')}
                    subLabel={t('risk.causeSubType')}
                    data={selectable('causes', RISK_CAUSES)}
                    value={draft.causeCategory}
                    onChange={set('causeCategory')}
                    subValue={draft.causeSubType}
                    onSubChange={set('causeSubType')}
                  />
                  <FactorField
                    label={t('risk.consequence')}
                    subLabel={t('risk.consequenceSubType')}
                    data={selectable('consequences', RISK_CONSEQUENCES)}
                    value={draft.consequence}
                    onChange={set('consequence')}
                    subValue={draft.consequenceSubType}
                    onSubChange={set('consequenceSubType')}
                  />
                </SimpleGrid>
                <MultiSelect
                  label={t('risk.ermConnections')}
                  data={selectable('erm', ERM_CONNECTIONS)}
                  value={draft.ermConnections}
                  onChange={set('ermConnections')}
                />
              </Stack>
            </Card>

            <Stack gap="sm" id="risk-scores">
              {risk && <RevisitNotice risk={risk} />}
              <ScorePanel
                scores={draft.scores}
                recommended={recommended}
                checked={checked}
                onChange={set('scores')}
              />
            </Stack>

            <Card withBorder>
              <Stack gap="sm">
                <Title order={3}>{t('risk.treatment')}</Title>
                <Select
                  label={t('risk.response')}
                  data={selectable('responses', RISK_RESPONSES)}
                  value={draft.response}
                  onChange={set('response')}
                  clearable
                  w={240}
                />
                <Textarea
                  label={t('risk.mitigationPlan')}
                  required={draft.response === 'MITIGATE'}
                  autosize
                  minRows={2}
                  value={draft.mitigationPlan}
                  onChange={(event) => set('mitigationPlan')(event.currentTarget.value)}
                  error={checked && planMissing ? t('RISK_MITIGATION_PLAN_REQUIRED') : undefined}
                />
                <SimpleGrid cols={{ base: 1, md: 2 }}>
                  {!library && (
                    <>
                      <Select
                        label={t('risk.owner')}
                        data={options('RISK_OWNER')}
                        value={draft.businessOwnerId}
                        onChange={set('businessOwnerId')}
                        clearable
                        searchable
                      />
                      <MultiSelect
                        label={t('risk.watchers')}
                        data={people}
                        value={draft.watcherIds}
                        onChange={set('watcherIds')}
                        searchable
                      />
                      <MultiSelect
                        label={t('risk.businessUnits')}
                        data={options('BUSINESS_UNIT')}
                        value={draft.businessUnitIds}
                        onChange={set('businessUnitIds')}
                        searchable
                      />
                      <MultiSelect
                        label={t('risk.audits')}
                        data={options('AUDIT')}
                        value={draft.auditIds}
                        onChange={set('auditIds')}
                        searchable
                      />
                      <MultiSelect
                        label={t('risk.policies')}
                        data={options('POLICY')}
                        value={draft.policyIds}
                        onChange={set('policyIds')}
                        searchable
                      />
                      <MultiSelect
                        label={t('risk.tags')}
                        data={(tags.data?.items ?? []).map((tag) => ({ value: tag.id, label: tag.name }))}
                        value={draft.tagIds}
                        onChange={set('tagIds')}
                        searchable
                      />
                    </>
                  )}
                  <MultiSelect
                    label={t('risk.controls')}
                    data={(controls.data?.items ?? []).map((control) => ({
                      value: control.id,
                      label: `${control.publicId} ${control.name}`,
                    }))}
                    value={draft.controlIds}
                    onChange={set('controlIds')}
                    searchable
                  />
                  {!library && (
                    <MultiSelect
                      label={t('risk.systems')}
                      data={(inventory.data?.items ?? []).map((item) => ({
                        value: item.id,
                        label: `${item.publicId} ${item.name}`,
                      }))}
                      value={draft.systemIds}
                      onChange={set('systemIds')}
                      searchable
                    />
                  )}
                  {!library && (
                    <MultiSelect
                      label={t('risk.lineItems')}
                      data={lineItemOptions}
                      value={draft.lineItemIds}
                      onChange={set('lineItemIds')}
                      searchable
                    />
                  )}
                  <MultiSelect
                    label={t('risk.relatedRisks')}
                    description={
                      risk?.state === 'INACTIVE'
                        ? t('RISK_RELATED_ON_INACTIVE', { 0: risk.publicId })
                        : undefined
                    }
                    data={(risks.data?.items ?? [])
                      .filter((item) => item.id !== risk?.id)
                      .map((item) => ({ value: item.id, label: `${item.publicId} ${item.name}` }))
                      .concat(
                        (risk?.relatedRisks ?? [])
                          .filter((item) => !risks.data?.items.some((other) => other.id === item.id))
                          .map((item) => ({ value: item.id, label: `${item.publicId} ${item.name}` })),
                      )}
                    value={draft.relatedRiskIds}
                    onChange={set('relatedRiskIds')}
                    searchable
                  />
                  {!library && (
                    <>
                      <TextInput
                        type="date"
                        label={t('risk.dueDate')}
                        value={draft.dueDate}
                        onChange={(event) => set('dueDate')(event.currentTarget.value)}
                      />
                      <Select
                        label={t('risk.timeZone')}
                        data={[...new Set([...TIMEZONES, ...(draft.timeZoneId ? [draft.timeZoneId] : [])])]}
                        value={draft.timeZoneId}
                        onChange={set('timeZoneId')}
                        clearable
                        searchable
                      />
                    </>
                  )}
                </SimpleGrid>
              </Stack>
            </Card>
            {canEdit && (
              <Group justify="flex-end">
                <Button type="submit" loading={save.isPending}>
                  {t(risk ? 'common.save' : 'risk.create')}
                </Button>
              </Group>
            )}
          </Stack>
        </fieldset>
      </form>
      {risk && !risk.library && <RiskIncidentsCard orgId={orgId} risk={risk} />}
      {risk && !risk.library && <ControlTriggersCard risk={risk} />}
      {risk && !risk.library && <ReviewScheduleCard orgId={orgId} target="risk" id={risk.id} />}
      {risk && <AuditHistory history={risk.history} />}
      <ConfirmDialog
        opened={confirmingResync}
        title={t('risk.resync')}
        message={t('risk.resyncConfirm')}
        confirmLabel={t('risk.resync')}
        loading={resync.isPending}
        onConfirm={() => resync.mutate()}
        onCancel={() => setConfirmingResync(false)}
      />
      {confirmingLinks && risk && (
        <Modal opened onClose={() => setConfirmingLinks(false)} title={t('risk.deactivate')} centered>
          <Stack gap="sm">
            <Text>{t('risk.deactivateLinks')}</Text>
            <List>
              {risk.relatedRisks.map((item) => (
                <List.Item key={item.id}>
                  {item.publicId} {item.name}
                </List.Item>
              ))}
            </List>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirmingLinks(false)}>
                {t('common.cancel')}
              </Button>
              <Button color="red" loading={changeState.isPending} onClick={() => changeState.mutate(true)}>
                {t('risk.deactivateConfirm')}
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}
    </>
  );
}

/** A risk factor (event type, cause, consequence) with its optional free-text sub-type. */
function FactorField({
  label,
  subLabel,
  data,
  value,
  onChange,
  subValue,
  onSubChange,
}: {
  label: string;
  subLabel: string;
  data: { value: string; label: string }[];
  value: string | null;
  onChange: (value: string | null) => void;
  subValue: string;
  onSubChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Select label={label} data={data} value={value} onChange={onChange} clearable />
      <TextInput
        aria-label={subLabel}
        placeholder={t('risk.subType')}
        value={subValue}
        onChange={(event) => onSubChange(event.currentTarget.value)}
      />
    </Stack>
  );
}

/**
 * A library risk: provider administrators edit it in the register's form; others read all of it. Either
 * may copy it into a register they hold.
 */
function LibraryRisk({ orgId, risk }: { orgId: string; risk: RiskDetail }) {
  const { t } = useTranslation();
  const held = useRiskModules();
  const canCopy = useHasPermission('RISK_EDIT') && held.length > 0;
  const editor = useLibraryEditor();
  const copy = useLibraryCopy('risks');
  const copyButton = canCopy && (
    <Button disabled={risk.inRegister} loading={copy.isPending} onClick={() => copy.mutate([risk.id])}>
      {t(risk.inRegister ? 'risk.library.inRegister' : 'risk.library.copyOne')}
    </Button>
  );
  return (
    <Stack gap="md">
      {editor ? (
        copyButton && <Group justify="flex-end">{copyButton}</Group>
      ) : (
        <Group justify="space-between">
          <Group gap="xs">
            <Badge size="lg" variant="outline">
              {risk.publicId}
            </Badge>
            {risk.state === 'INACTIVE' && (
              <Badge size="lg" color="gray">
                {t('risk.states.INACTIVE')}
              </Badge>
            )}
            {risk.keyRisk && <Badge variant="light">{t('risk.keyRisk')}</Badge>}
            {risk.modules.map((module) => (
              <Badge key={module} variant="light">
                {t(`risk.modules.${module}`)}
              </Badge>
            ))}
          </Group>
          {copyButton}
        </Group>
      )}
      {risk.inRegister && <Alert color="blue">{t('risk.library.inRegisterHint')}</Alert>}
      {editor ? <RiskForm orgId={orgId} risk={risk} library /> : <LibraryRiskView risk={risk} />}
    </Stack>
  );
}

/** Everything a library risk holds, read-only: what a copy brings into the register. */
function LibraryRiskView({ risk }: { risk: RiskDetail }) {
  const { t } = useTranslation();
  const option = (kind: string, value: string | null, sub: string | null = null) =>
    value ? `${t(`risk.${kind}.${value}`)}${sub ? ` (${sub})` : ''}` : '—';
  const level = (value: string | null) => option('levels', value);
  const scored = (
    label: string,
    score: { value: string | null; overrideReason: string | null },
    kind = 'levels',
  ) => [label, `${option(kind, score.value)}${score.overrideReason ? ` — ${score.overrideReason}` : ''}`];
  return (
    <>
      <Text>{risk.definition || t('risk.noDefinition')}</Text>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Facts
          title={t('risk.library.threatType')}
          rows={[
            [t('risk.eventType'), option('eventTypes', risk.riskEventType, risk.riskEventSubType)],
            [t('risk.cause'), option('causes', risk.causeCategory, risk.causeSubType)],
            [t('risk.consequence'), option('consequences', risk.consequence, risk.consequenceSubType)],
            [
              t('risk.ermConnections'),
              risk.ermConnections.map((erm) => t(`risk.erm.${erm}`)).join(', ') || '—',
            ],
          ]}
        />
        <Facts
          title={t('risk.scores.title')}
          rows={[
            scored(t('risk.scores.potentialImpact'), risk.potentialImpact),
            [t('risk.scores.likelihood'), level(risk.likelihood)],
            scored(t('risk.scores.inherentRisk'), risk.inherentRisk),
            scored(t('risk.scores.controlStrength'), risk.controlStrength, 'strengths'),
            scored(t('risk.scores.residualRisk'), risk.residualRisk),
            [t('risk.scores.riskDirection'), option('directions', risk.riskDirection)],
          ]}
        />
        <Facts
          title={t('risk.treatment')}
          rows={[
            [t('risk.response'), option('responses', risk.response)],
            [t('risk.mitigationPlan'), risk.mitigationPlan || '—'],
          ]}
        />
        <Facts
          title={t('risk.controls')}
          rows={risk.controls.map((control) => [
            `${control.publicId} ${control.name}`,
            option('strengths', control.overallScore),
          ])}
          empty={t('risk.library.noControls')}
        />
      </SimpleGrid>
    </>
  );
}

/** A titled table of labels and values. */
function Facts({ title, rows, empty }: { title: string; rows: string[][]; empty?: string }) {
  return (
    <Card withBorder>
      <Title order={3} mb="xs">
        {title}
      </Title>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <Table aria-label={title}>
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th w="40%">{label}</Table.Th>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}
