import {
  Anchor,
  Button,
  Checkbox,
  FileButton,
  Group,
  Modal,
  MultiSelect,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconPlus, IconShieldCheck, IconTrash, IconUpload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CONTROL_CATEGORIES,
  CONTROL_CONFIGURATIONS,
  CONTROL_STRENGTHS,
  CONTROL_TYPES,
  controlDetailSchema,
  recommendedOverallScore,
  RISK_MODULES,
  type ControlDetail,
  type ControlStrength,
} from '@vigil/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch, apiFetchFile, orgPath } from '../../lib/api';
import { saveBlob } from '../../lib/download';
import { useHasPermission } from '../../lib/session';
import { triggersQuery } from '../triggers/triggers';
import { GatedPage } from '../../shell/gated-page';
import { QueryStates } from '../../shell/query-status';
import { useTicketPeople } from '../tickets/ticket-badges';
import { controlPath, controlQuery, controlsQuery, riskKey, riskListPath, risksQuery } from './api';
import { useRiskModules } from './module-badges';
import { RegisterList, useRegisterList } from './register-list';
import { AuditHistory } from './audit-history';
import { ReviewScheduleCard } from './review-schedule';
import { needsReason, type ScoreDraft } from './score-panel';

/** The control register (/risk/controls/register) or library (/risk/controls/library). */
export function ControlsPage({ library }: { library: boolean }) {
  const { t } = useTranslation();
  const allowed = useHasPermission('RISK_VIEW');
  const held = useRiskModules();
  return (
    <GatedPage
      title={t(library ? 'nav.tabs.controlLibrary' : 'nav.tabs.controlRegister')}
      allowed={allowed && (library || held.length > 0)}
      maw={1400}
    >
      <ControlList library={library} />
    </GatedPage>
  );
}

function ControlList({ library }: { library: boolean }) {
  const { t } = useTranslation();
  const list = useRegisterList('controls', library);
  const [open, setOpen] = useState<string | null>(null);
  const query = useQuery(controlsQuery(list.orgId, library, list.params));
  return (
    <>
      <RegisterList
        list={list}
        query={query}
        actions={
          list.mayWrite && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setOpen('new')}>
              {t('risk.control.new')}
            </Button>
          )
        }
        failedTitle={t('risk.loadFailed')}
        empty={{
          icon: <IconShieldCheck size={32} stroke={1.5} />,
          title: t('risk.control.emptyTitle'),
          message: t('risk.control.emptyMessage'),
        }}
        head={(sortable) => (
          <>
            {sortable('number', t('risk.publicId'))}
            {sortable('name', t('risk.name'))}
            <Table.Th>{t('risk.control.type')}</Table.Th>
            <Table.Th>{t('risk.control.category')}</Table.Th>
            {sortable('overallScore', t('risk.control.overallScore'))}
            {!library && <Table.Th>{t('risk.control.riskCount')}</Table.Th>}
          </>
        )}
        row={(control) => (
          <>
            <Table.Td>
              <Anchor component="button" type="button" onClick={() => setOpen(control.publicId)}>
                {control.publicId}
              </Anchor>
            </Table.Td>
            <Table.Td>{control.name}</Table.Td>
            <Table.Td>{control.type ? t(`risk.control.types.${control.type}`) : '—'}</Table.Td>
            <Table.Td>{control.category ? t(`risk.control.categories.${control.category}`) : '—'}</Table.Td>
            <Table.Td>
              {control.overallScore.value ? t(`risk.strengths.${control.overallScore.value}`) : '—'}
            </Table.Td>
            {!library && <Table.Td>{control.riskCount}</Table.Td>}
          </>
        )}
      />
      {open && (
        <ControlDialog
          orgId={list.orgId}
          refId={open}
          library={library}
          readOnly={library && !list.mayWrite}
          onClose={() => setOpen(null)}
        />
      )}
    </>
  );
}

function ControlDialog({
  orgId,
  refId,
  library,
  readOnly,
  onClose,
}: {
  orgId: string;
  refId: string;
  library: boolean;
  readOnly: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const creating = refId === 'new';
  const control = useQuery({ ...controlQuery(orgId, refId, library), enabled: !creating });
  return (
    <Modal opened onClose={onClose} title={creating ? t('risk.control.new') : refId} size="xl" centered>
      {creating ? (
        <ControlForm orgId={orgId} control={null} library={library} readOnly={false} onClose={onClose} />
      ) : (
        <QueryStates query={control} loadingLabel={t('risk.loading')} failedTitle={t('risk.loadFailed')}>
          {(data) => (
            <ControlForm
              orgId={orgId}
              control={data}
              library={library}
              readOnly={readOnly}
              onClose={onClose}
            />
          )}
        </QueryStates>
      )}
    </Modal>
  );
}

/** A control of the register or, written by provider administrators, of the library (no owner, evidence or triggers). */
function ControlForm({
  orgId,
  control,
  library,
  readOnly,
  onClose,
}: {
  orgId: string;
  control: ControlDetail | null;
  library: boolean;
  readOnly: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const held = useRiskModules();
  const canEdit = useHasPermission('RISK_EDIT') && !readOnly;
  const people = useTicketPeople(orgId);
  // Links stay within the register or within the library.
  const risks = useQuery({
    ...risksQuery(orgId, library, {
      modules: library ? [...RISK_MODULES] : held,
      q: '',
      state: 'ALL',
      exceptions: 'ALL',
      sortBy: 'number',
      desc: false,
      pageSize: 500,
      pageNumber: 1,
    }),
    enabled: !readOnly,
  });
  const [name, setName] = useState(control?.name ?? '');
  const [definition, setDefinition] = useState(control?.definition ?? '');
  const [keyControl, setKeyControl] = useState(control?.keyControl ?? false);
  const [ownerId, setOwnerId] = useState<string | null>(control?.owner?.id ?? null);
  const [type, setType] = useState<string | null>(control?.type ?? null);
  const [category, setCategory] = useState<string | null>(control?.category ?? null);
  const [configuration, setConfiguration] = useState<string | null>(control?.configuration ?? null);
  const [design, setDesign] = useState<ControlStrength | null>(control?.designEffectiveness ?? null);
  const [operating, setOperating] = useState<ControlStrength | null>(control?.operatingEffectiveness ?? null);
  const [overall, setOverall] = useState<ScoreDraft<ControlStrength>>({
    value: control?.overallScore.value ?? null,
    reason: control?.overallScore.overrideReason ?? '',
  });
  const [riskIds, setRiskIds] = useState<string[]>(control?.risks.map((risk) => risk.id) ?? []);
  // Triggers are related to register controls by people who may see the triggers.
  const canPickTriggers = useHasPermission('TRIGGER_VIEW') && !readOnly && !library;
  const triggers = useQuery({
    ...triggersQuery(orgId, 'security', {
      sortField: 'name',
      sortOrder: 'ASC',
      pageSize: 100,
      pageNumber: 1,
    }),
    enabled: canPickTriggers,
  });
  const [triggerIds, setTriggerIds] = useState<string[]>(
    control?.triggers.map((trigger) => trigger.id) ?? [],
  );
  const triggerOptions = [
    ...(triggers.data?.items ?? []).map((trigger) => ({ value: trigger.id, label: trigger.name })),
    ...(control?.triggers ?? [])
      .filter((trigger) => !triggers.data?.items.some((other) => other.id === trigger.id))
      .map((trigger) => ({ value: trigger.id, label: trigger.name })),
  ];
  const [checked, setChecked] = useState(false);
  const recommended = recommendedOverallScore(design, operating);
  const reasonMissing = needsReason(overall, recommended) && !overall.reason.trim();
  const refresh = () => queryClient.invalidateQueries({ queryKey: riskKey(orgId) });
  const save = useMutation({
    mutationFn: () =>
      apiFetch(
        control
          ? controlPath(orgId, control.id, library)
          : library
            ? riskListPath(orgId, 'controls', true)
            : `${orgPath(orgId)}/control`,
        {
          method: control ? 'PATCH' : 'POST',
          body: {
            name: name.trim(),
            definition,
            keyControl,
            ownerId,
            type,
            category,
            configuration,
            designEffectiveness: design,
            operatingEffectiveness: operating,
            overallScore: { value: overall.value, overrideReason: overall.reason || null },
            riskIds,
            ...(canPickTriggers && { triggerIds }),
            ...(control && { version: control.version }),
          },
          schema: controlDetailSchema,
        },
      ),
    onSuccess: async (saved) => {
      await refresh();
      notifications.show({ color: 'green', message: t('risk.saved', { id: saved.publicId }) });
      onClose();
    },
    meta: { errorKey: 'risk.saveFailed' },
  });
  const upload = useMutation({
    mutationFn: (files: File[]) => {
      const form = new FormData();
      for (const file of files) form.append('file', file);
      return apiFetch(`${controlPath(orgId, control!.id)}/evidence`, {
        method: 'POST',
        formData: form,
        schema: controlDetailSchema,
      });
    },
    onSuccess: refresh,
    meta: { errorKey: 'risk.control.uploadFailed' },
  });
  const remove = useMutation({
    mutationFn: (fileId: string) =>
      apiFetch(`${controlPath(orgId, control!.id)}/evidence/${fileId}`, {
        method: 'DELETE',
        schema: controlDetailSchema,
      }),
    onSuccess: refresh,
    meta: { errorKey: 'risk.control.deleteFailed' },
  });
  const [removing, setRemoving] = useState<{ id: string; name: string } | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (name.trim() && !reasonMissing) save.mutate();
  };
  const strengths = CONTROL_STRENGTHS.map((value) => ({ value, label: t(`risk.strengths.${value}`) }));
  const evidence = control && !control.library ? control.evidence : null;
  return (
    <>
      <form onSubmit={submit} noValidate>
        <fieldset disabled={!canEdit} style={{ border: 0, padding: 0, margin: 0 }}>
          <Stack gap="sm">
            <TextInput
              label={t('risk.name')}
              required
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              error={checked && !name.trim() ? t('risk.nameRequired') : undefined}
            />
            <Textarea
              label={t('risk.definition')}
              autosize
              minRows={2}
              value={definition}
              onChange={(event) => setDefinition(event.currentTarget.value)}
            />
            <Checkbox
              label={t('risk.control.keyControl')}
              checked={keyControl}
              onChange={(event) => setKeyControl(event.currentTarget.checked)}
            />
            <Group grow>
              <Select
                label={t('risk.control.type')}
                data={CONTROL_TYPES.map((value) => ({ value, label: t(`risk.control.types.${value}`) }))}
                value={type}
                onChange={setType}
                clearable
              />
              <Select
                label={t('risk.control.category')}
                data={CONTROL_CATEGORIES.map((value) => ({
                  value,
                  label: t(`risk.control.categories.${value}`),
                }))}
                value={category}
                onChange={setCategory}
                clearable
              />
              <Select
                label={t('risk.control.configuration')}
                data={CONTROL_CONFIGURATIONS.map((value) => ({
                  value,
                  label: t(`risk.control.configurations.${value}`),
                }))}
                value={configuration}
                onChange={setConfiguration}
                clearable
              />
            </Group>
            {!readOnly && !library && (
              <Select
                label={t('risk.owner')}
                data={people}
                value={ownerId}
                onChange={setOwnerId}
                clearable
                searchable
              />
            )}
            <Group grow align="flex-start">
              <Select
                label={t('risk.control.designEffectiveness')}
                data={strengths}
                value={design}
                onChange={(value) => setDesign(value as ControlStrength | null)}
                clearable
              />
              <Select
                label={t('risk.control.operatingEffectiveness')}
                data={strengths}
                value={operating}
                onChange={(value) => setOperating(value as ControlStrength | null)}
                clearable
              />
              <Stack gap={4}>
                <Select
                  label={t('risk.control.overallScore')}
                  data={strengths}
                  value={overall.value}
                  onChange={(value) => setOverall({ ...overall, value: value as ControlStrength | null })}
                  clearable
                />
                <Text size="xs" c="dimmed">
                  {recommended
                    ? t('risk.scores.recommended', { value: t(`risk.strengths.${recommended}`) })
                    : t('risk.scores.noRecommendation', { needs: t('risk.control.needs') })}
                </Text>
                {recommended && overall.value !== recommended && (
                  <Button
                    size="xs"
                    variant="light"
                    onClick={() => setOverall({ value: recommended, reason: '' })}
                  >
                    {t('risk.scores.useRecommended')}
                  </Button>
                )}
              </Stack>
            </Group>
            {needsReason(overall, recommended) && (
              <TextInput
                label={t('risk.scores.overrideReason')}
                required
                value={overall.reason}
                onChange={(event) => setOverall({ ...overall, reason: event.currentTarget.value })}
                error={checked && reasonMissing ? t('risk.scores.reasonRequired') : undefined}
              />
            )}
            {!readOnly && (
              <MultiSelect
                label={t('risk.control.risks')}
                data={(risks.data?.items ?? []).map((risk) => ({
                  value: risk.id,
                  label: `${risk.publicId} ${risk.name}`,
                }))}
                value={riskIds}
                onChange={setRiskIds}
                searchable
              />
            )}
            {canPickTriggers && (
              <MultiSelect
                label={t('risk.control.triggers')}
                description={triggers.isError ? t('risk.links.searchFailed') : undefined}
                data={triggerOptions}
                value={triggerIds}
                onChange={setTriggerIds}
                searchable
              />
            )}
            {canEdit && (
              <Group justify="flex-end">
                <Button variant="default" onClick={onClose}>
                  {t('common.cancel')}
                </Button>
                <Button type="submit" loading={save.isPending}>
                  {t(control ? 'common.save' : 'risk.create')}
                </Button>
              </Group>
            )}
          </Stack>
        </fieldset>
        {evidence && (
          <Stack gap="xs" mt="md">
            <Group justify="space-between">
              <Text fw={600}>{t('risk.control.evidence')}</Text>
              {canEdit && (
                <FileButton multiple onChange={(files) => files.length > 0 && upload.mutate(files)}>
                  {(props) => (
                    <Button
                      {...props}
                      size="xs"
                      variant="default"
                      leftSection={<IconUpload size={14} />}
                      loading={upload.isPending}
                    >
                      {t('risk.control.upload')}
                    </Button>
                  )}
                </FileButton>
              )}
            </Group>
            {evidence.length === 0 && (
              <Text size="sm" c="dimmed">
                {t('risk.control.noEvidence')}
              </Text>
            )}
            {evidence.map((file) => (
              <Group key={file.id} justify="space-between">
                <Text size="sm">{file.name}</Text>
                <Group gap="xs">
                  <Button
                    size="xs"
                    variant="subtle"
                    leftSection={<IconDownload size={14} />}
                    onClick={() =>
                      void apiFetchFile(`${controlPath(orgId, control!.id)}/evidence/${file.id}`).then(
                        (blob) => saveBlob(blob, file.name),
                      )
                    }
                  >
                    {t('risk.control.download')}
                  </Button>
                  {canEdit && (
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      leftSection={<IconTrash size={14} />}
                      onClick={() => setRemoving(file)}
                    >
                      {t('risk.delete')}
                    </Button>
                  )}
                </Group>
              </Group>
            ))}
          </Stack>
        )}
        {removing && (
          <Modal opened onClose={() => setRemoving(null)} title={t('risk.control.deleteEvidence')} centered>
            <Stack>
              <Text>{t('risk.control.deleteEvidenceConfirm', { name: removing.name })}</Text>
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setRemoving(null)}>
                  {t('common.cancel')}
                </Button>
                <Button
                  color="red"
                  loading={remove.isPending}
                  onClick={() => remove.mutate(removing.id, { onSuccess: () => setRemoving(null) })}
                >
                  {t('risk.delete')}
                </Button>
              </Group>
            </Stack>
          </Modal>
        )}
      </form>
      {control && !control.library && <ReviewScheduleCard orgId={orgId} target="control" id={control.id} />}
      {control && <AuditHistory history={control.history} />}
    </>
  );
}
