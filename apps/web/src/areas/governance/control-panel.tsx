import {
  Alert,
  Anchor,
  Badge,
  Button,
  Divider,
  Drawer,
  FileButton,
  Group,
  List,
  Select,
  Spoiler,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AnchorLink } from '../../shell/links';
import {
  CONTROL_ANSWER_STATUSES,
  MAX_PAGE_SIZE,
  controlAnswerSchema,
  frameworkDetailSchema,
  triggerListSchema,
  type ControlAnswer,
  type ControlAnswerStatus,
  type EvaluationPeriod,
  type Evidence,
  type FrameworkControl,
  type FrameworkDetail,
} from '@vigil/contracts';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { ApiRequestError, apiFetch, apiFetchFile, orgPath } from '../../lib/api';
import { saveBlob } from '../../lib/download';
import { describeError, notifyError, notifyMessage } from '../../lib/notify';
import { useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { personSummariesQuery } from '../settings/metadata-queries';
import { reportsQuery } from '../reports/api';
import { AutoEvidenceSection } from './auto-evidence';
import { answersQuery, frameworkPath, frameworkQuery, governanceKey, periodPath } from './api';

/**
 * One control: what it asks, its answer in the chosen period with owner, notes and evidence, and for
 * editors its mandatory and alertable flags. A finalized period shows the answer read-only.
 */
export function ControlPanel({
  orgId,
  framework,
  control,
  period,
  answer,
  canEdit,
  onClose,
}: {
  orgId: string;
  framework: FrameworkDetail;
  control: FrameworkControl;
  period: EvaluationPeriod | null;
  answer: ControlAnswer | null;
  canEdit: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const editable = canEdit && period?.state === 'IN_PROGRESS';
  return (
    <Drawer
      opened
      onClose={onClose}
      position="right"
      size="lg"
      title={
        <Title
          order={2}
          size="h4"
        >{`${control.ref} ${control.title === control.ref ? '' : control.title}`}</Title>
      }
    >
      <Stack gap="md">
        {control.statement && <Text size="sm">{control.statement}</Text>}
        {control.examples.length > 0 && (
          <Spoiler
            maxHeight={0}
            showLabel={t('governance.controls.showExamples', { count: control.examples.length })}
            hideLabel={t('governance.controls.hideExamples')}
          >
            <List size="sm" spacing={4}>
              {control.examples.map((example) => (
                <List.Item key={example}>{example}</List.Item>
              ))}
            </List>
          </Spoiler>
        )}
        <Group gap={4}>
          {control.mandatory && <Badge variant="outline">{t('governance.controls.mandatory')}</Badge>}
          {control.alertable && (
            <Badge variant="outline" color="orange" tt="none">
              {control.triggerName ? (
                <Trans
                  i18nKey="governance.controls.watchedBy"
                  values={{ name: control.triggerName }}
                  components={{
                    trigger: (
                      <AnchorLink
                        to={control.triggerDomain === 'fraud' ? '/fraud/triggers' : '/triggers'}
                        search={{ search: control.triggerName }}
                        size="xs"
                      />
                    ),
                  }}
                />
              ) : (
                t('governance.controls.watchedBy', { name: '—' })
              )}
            </Badge>
          )}
        </Group>
        <Divider />
        {period ? (
          <>
            {period.state === 'FINALIZED' && (
              <Alert color="gray">{t('governance.controls.finalized', { name: period.name })}</Alert>
            )}
            <AnswerForm
              key={`${period.id}-${control.id}-${answer?.modifiedOn ?? ''}`}
              orgId={orgId}
              control={control}
              period={period}
              answer={answer}
              editable={editable}
            />
            <EvidenceList
              orgId={orgId}
              control={control}
              period={period}
              answer={answer}
              editable={editable}
            />
            <AutoEvidenceSection orgId={orgId} control={control} period={period} editable={editable} />
          </>
        ) : (
          <Text size="sm" c="dimmed">
            {t('governance.controls.noPeriod')}
          </Text>
        )}
        {canEdit && (
          <>
            <Divider />
            <ControlSettings
              key={control.id + String(control.triggerId)}
              orgId={orgId}
              framework={framework}
              control={control}
            />
          </>
        )}
      </Stack>
    </Drawer>
  );
}

function useAnswerSaved(orgId: string, periodId: string) {
  const queryClient = useQueryClient();
  return async (saved: ControlAnswer) => {
    queryClient.setQueryData(answersQuery(orgId, periodId).queryKey, (old) => [
      ...(old ?? []).filter((item) => item.controlId !== saved.controlId),
      saved,
    ]);
    await queryClient.invalidateQueries({ queryKey: [...governanceKey(orgId), 'periods'] });
    await queryClient.invalidateQueries({ queryKey: [...governanceKey(orgId), 'frameworks'] });
  };
}

function AnswerForm({
  orgId,
  control,
  period,
  answer,
  editable,
}: {
  orgId: string;
  control: FrameworkControl;
  period: EvaluationPeriod;
  answer: ControlAnswer | null;
  editable: boolean;
}) {
  const { t } = useTranslation();
  const people = useQuery({ ...personSummariesQuery(orgId), enabled: editable });
  const [status, setStatus] = useState<ControlAnswerStatus | null>(answer?.status ?? null);
  const [ownerId, setOwnerId] = useState<string | null>(answer?.ownerId ?? null);
  const [notes, setNotes] = useState(answer?.notes ?? '');
  const saved = useAnswerSaved(orgId, period.id);
  const save = useMutation({
    mutationFn: () =>
      apiFetch(`${periodPath(orgId, period.id)}/control/${control.id}`, {
        method: 'PUT',
        body: { status, ownerId, notes },
        schema: controlAnswerSchema,
      }),
    onSuccess: async (result) => {
      notifyMessage('governance.controls.saved');
      await saved(result);
    },
    meta: { notifyError: false },
  });
  const refusal = save.error ? describeError(save.error, t) : null;
  const statusRefused =
    save.error instanceof ApiRequestError && save.error.error.field === 'status' ? refusal : undefined;
  const ownerOptions = (people.data ?? [])
    .filter((person) => person.active || person.id === ownerId)
    .map((person) => ({ value: person.id, label: person.fullName }));
  if (ownerId && answer?.ownerName && !ownerOptions.some((option) => option.value === ownerId)) {
    ownerOptions.push({ value: ownerId, label: answer.ownerName });
  }
  if (!editable) {
    return (
      <Stack gap={4}>
        <Text size="sm">
          {t('governance.controls.status')}: {t(`governance.statuses.${answer?.status ?? 'none'}`)}
        </Text>
        <Text size="sm">
          {t('governance.controls.owner')}: {answer?.ownerName ?? '—'}
        </Text>
        {answer?.notes && (
          <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
            {answer.notes}
          </Text>
        )}
      </Stack>
    );
  }
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <Stack gap="sm">
        {answer?.suggestion && !answer.status && (
          <Alert color="violet" title={t('governance.controls.suggestionTitle')}>
            <Stack gap="xs" align="flex-start">
              <Text size="sm">
                {t('governance.controls.suggestion', {
                  from: answer.suggestion.from,
                  status: t(`governance.statuses.${answer.suggestion.status}`),
                })}
              </Text>
              <Button size="xs" variant="light" onClick={() => setStatus(answer.suggestion!.status)}>
                {t('governance.controls.useSuggestion')}
              </Button>
            </Stack>
          </Alert>
        )}
        <Select
          label={t('governance.controls.status')}
          placeholder={t('governance.statuses.none')}
          clearable
          data={CONTROL_ANSWER_STATUSES.map((value) => ({
            value,
            label: t(`governance.statuses.${value}`),
            disabled: value === 'NOT_APPLICABLE' && control.mandatory,
          }))}
          value={status}
          onChange={(value) => setStatus(value as ControlAnswerStatus | null)}
          error={statusRefused}
        />
        <Select
          label={t('governance.controls.owner')}
          placeholder={t('governance.controls.noOwner')}
          clearable
          searchable
          data={ownerOptions}
          value={ownerId}
          onChange={setOwnerId}
        />
        <Textarea
          label={t('governance.controls.notes')}
          autosize
          minRows={3}
          maxLength={4000}
          value={notes}
          onChange={(event) => setNotes(event.currentTarget.value)}
        />
        {refusal && !statusRefused && (
          <Text size="sm" c="red" role="alert">
            {refusal}
          </Text>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function EvidenceList({
  orgId,
  control,
  period,
  answer,
  editable,
}: {
  orgId: string;
  control: FrameworkControl;
  period: EvaluationPeriod;
  answer: ControlAnswer | null;
  editable: boolean;
}) {
  const { t } = useTranslation();
  const [removing, setRemoving] = useState<Evidence | null>(null);
  const [linkName, setLinkName] = useState('');
  const [linkUrl, setLinkUrl] = useState('');
  const [slug, setSlug] = useState('');
  const mayReadReports = useHasPermission('REPORT_VIEW');
  const saved = useAnswerSaved(orgId, period.id);
  const base = periodPath(orgId, period.id);
  const add = useMutation({
    mutationFn: (body: object) =>
      apiFetch(`${base}/control/${control.id}/evidence`, {
        method: 'POST',
        body,
        schema: controlAnswerSchema,
      }),
    onSuccess: async (result) => {
      setLinkName('');
      setLinkUrl('');
      setSlug('');
      notifyMessage('governance.evidence.added');
      await saved(result);
    },
    meta: { errorKey: 'governance.evidence.addFailed' },
  });
  const upload = useMutation({
    mutationFn: (files: File[]) => {
      const formData = new FormData();
      for (const file of files) formData.append('file', file, file.name);
      return apiFetch(`${base}/control/${control.id}/evidence-files`, {
        method: 'POST',
        formData,
        schema: controlAnswerSchema,
      });
    },
    onSuccess: async (result) => {
      notifyMessage('governance.evidence.added');
      await saved(result);
    },
    meta: { errorKey: 'governance.evidence.addFailed' },
  });
  const remove = useMutation({
    mutationFn: (evidence: Evidence) =>
      apiFetch(`${base}/evidence/${evidence.id}`, { method: 'DELETE', schema: controlAnswerSchema }),
    onSuccess: async (result) => {
      setRemoving(null);
      notifyMessage('governance.evidence.removed');
      await saved(result);
    },
    meta: { errorKey: 'governance.evidence.removeFailed' },
  });
  const download = useMutation({
    mutationFn: async (evidence: Evidence) =>
      saveBlob(
        await apiFetchFile(`${base}/evidence/${evidence.id}`, { accept: '*/*' }),
        evidence.kind === 'report' ? `${evidence.name}.pdf` : evidence.name,
      ),
    onError: (error) => notifyError(error, 'governance.evidence.downloadFailed'),
    meta: { notifyError: false },
  });
  const evidence = answer?.evidence ?? [];
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t('governance.evidence.title')}
      </Title>
      {evidence.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('governance.evidence.none')}
        </Text>
      ) : (
        <List size="sm" spacing={4}>
          {evidence.map((item) => (
            <List.Item key={item.id}>
              <Group gap="xs" wrap="nowrap">
                <Badge size="xs" variant="light">
                  {t(`governance.evidence.kinds.${item.kind}`)}
                </Badge>
                {item.kind === 'link' && item.url ? (
                  <Anchor href={item.url} target="_blank" rel="noopener noreferrer">
                    {item.name}
                  </Anchor>
                ) : item.kind === 'ticket' && item.ticket ? (
                  <AnchorLink
                    to={item.ticket.kind === 'incident' ? '/tickets/incident/$slug' : '/tickets/task/$slug'}
                    params={{ slug: item.ticket.slug }}
                  >
                    {`${item.ticket.slug} ${item.name}`}
                  </AnchorLink>
                ) : (
                  <Anchor component="button" type="button" onClick={() => download.mutate(item)}>
                    {item.name}
                  </Anchor>
                )}
                {editable && (
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    color="red"
                    aria-label={t('governance.evidence.removeNamed', { name: item.name })}
                    onClick={() => setRemoving(item)}
                  >
                    {t('governance.evidence.remove')}
                  </Button>
                )}
              </Group>
            </List.Item>
          ))}
        </List>
      )}
      {editable && (
        <Stack gap="xs">
          <form
            onSubmit={(event) => {
              event.preventDefault();
              if (linkName.trim() && linkUrl.trim())
                add.mutate({ kind: 'link', name: linkName, url: linkUrl });
            }}
          >
            <Group align="flex-end" gap="xs">
              <TextInput
                size="xs"
                label={t('governance.evidence.linkName')}
                value={linkName}
                onChange={(event) => setLinkName(event.currentTarget.value)}
              />
              <TextInput
                size="xs"
                type="url"
                label={t('governance.evidence.linkUrl')}
                placeholder="https://"
                value={linkUrl}
                onChange={(event) => setLinkUrl(event.currentTarget.value)}
              />
              <Button
                size="xs"
                type="submit"
                variant="default"
                disabled={!linkName.trim() || !linkUrl.trim()}
              >
                {t('governance.evidence.addLink')}
              </Button>
            </Group>
          </form>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              if (slug.trim()) add.mutate({ kind: 'ticket', slug: slug.trim() });
            }}
          >
            <Group align="flex-end" gap="xs">
              <TextInput
                size="xs"
                label={t('governance.evidence.ticket')}
                placeholder="INC-1042"
                value={slug}
                onChange={(event) => setSlug(event.currentTarget.value)}
              />
              <Button size="xs" type="submit" variant="default" disabled={!slug.trim()}>
                {t('governance.evidence.addTicket')}
              </Button>
            </Group>
          </form>
          {mayReadReports && (
            <ReportPicker
              orgId={orgId}
              pending={add.isPending}
              onAttach={(reportId) => add.mutate({ kind: 'report', reportId })}
            />
          )}
          <FileButton multiple onChange={(files) => files.length > 0 && upload.mutate(files)}>
            {(props) => (
              <Button
                {...props}
                size="xs"
                variant="default"
                loading={upload.isPending}
                style={{ alignSelf: 'flex-start' }}
              >
                {t('governance.evidence.upload')}
              </Button>
            )}
          </FileButton>
        </Stack>
      )}
      <ConfirmDialog
        opened={removing !== null}
        title={t('governance.evidence.removeTitle')}
        message={t('governance.evidence.removeMessage', { name: removing?.name ?? '' })}
        confirmLabel={t('governance.evidence.remove')}
        loading={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing)}
        onCancel={() => setRemoving(null)}
      />
    </Stack>
  );
}

/** Chooses one of the newest completed reports of the reports area to attach as evidence. */
function ReportPicker({
  orgId,
  pending,
  onAttach,
}: {
  orgId: string;
  pending: boolean;
  onAttach: (reportId: string) => void;
}) {
  const { t } = useTranslation();
  const [reportId, setReportId] = useState<string | null>(null);
  const reports = useQuery(reportsQuery(orgId, { pageSize: MAX_PAGE_SIZE, pageNumber: 1 }));
  const completed = (reports.data?.items ?? []).filter((report) => report.state === 'COMPLETED');
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (reportId) onAttach(reportId);
      }}
    >
      <Group align="flex-end" gap="xs">
        <Select
          size="xs"
          searchable
          label={t('governance.evidence.report')}
          placeholder={
            reports.isPending
              ? t('governance.evidence.reportsLoading')
              : completed.length === 0
                ? t('governance.evidence.noReports')
                : t('governance.evidence.reportPlaceholder')
          }
          disabled={reports.isPending || completed.length === 0}
          error={reports.isError ? t('governance.evidence.reportsFailed') : undefined}
          data={completed.map((report) => ({
            value: report.id,
            label: t('governance.evidence.reportRange', {
              name: report.name,
              begin: report.begin.slice(0, 10),
              end: report.end.slice(0, 10),
            }),
          }))}
          value={reportId}
          onChange={setReportId}
        />
        <Button size="xs" type="submit" variant="default" disabled={!reportId} loading={pending}>
          {t('governance.evidence.addReport')}
        </Button>
      </Group>
    </form>
  );
}

/** Mandatory and alertable flags; an alertable control names one of the organisation's triggers. */
function ControlSettings({
  orgId,
  framework,
  control,
}: {
  orgId: string;
  framework: FrameworkDetail;
  control: FrameworkControl;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const canSeeTriggers = useHasPermission('TRIGGER_VIEW');
  const [mandatory, setMandatory] = useState(control.mandatory);
  const [alertable, setAlertable] = useState(control.alertable);
  const [triggerId, setTriggerId] = useState<string | null>(control.triggerId);
  const triggers = useQuery({
    queryKey: ['triggers', orgId, 'governance-picker'],
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/triggers?pageSize=500`, { schema: triggerListSchema, signal }),
    enabled: canSeeTriggers && alertable,
  });
  const save = useMutation({
    mutationFn: () =>
      apiFetch(`${frameworkPath(orgId, framework.id)}/control/${control.id}`, {
        method: 'PATCH',
        body: { mandatory, alertable, triggerId },
        schema: frameworkDetailSchema,
      }),
    onSuccess: (updated) => {
      queryClient.setQueryData(frameworkQuery(orgId, framework.id).queryKey, updated);
      notifyMessage('governance.controls.settingsSaved');
    },
    meta: { notifyError: false },
  });
  const options = (triggers.data?.items ?? []).map((trigger) => ({ value: trigger.id, label: trigger.name }));
  if (triggerId && control.triggerName && !options.some((option) => option.value === triggerId)) {
    options.push({ value: triggerId, label: control.triggerName });
  }
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t('governance.controls.settings')}
      </Title>
      <Switch
        label={t('governance.controls.mandatoryLabel')}
        checked={mandatory}
        onChange={(event) => setMandatory(event.currentTarget.checked)}
      />
      <Switch
        label={t('governance.controls.alertableLabel')}
        checked={alertable}
        onChange={(event) => setAlertable(event.currentTarget.checked)}
      />
      {alertable && (
        <Select
          label={t('governance.controls.trigger')}
          searchable
          clearable
          data={options}
          value={triggerId}
          onChange={setTriggerId}
          error={save.error ? describeError(save.error, t) : undefined}
        />
      )}
      {!alertable && save.error && (
        <Text size="sm" c="red" role="alert">
          {describeError(save.error, t)}
        </Text>
      )}
      <Group justify="flex-end">
        <Button variant="default" loading={save.isPending} onClick={() => save.mutate()}>
          {t('governance.controls.saveSettings')}
        </Button>
      </Group>
    </Stack>
  );
}
