import { Badge, Button, Group, List, NumberInput, Select, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  AUTO_EVIDENCE_KINDS,
  AUTO_EVIDENCE_LIMITS,
  autoEvidenceSourceSchema,
  triggerListSchema,
  type AutoEvidenceEvaluation,
  type AutoEvidenceKind,
  type AutoEvidenceSource,
  type AutoEvidenceState,
  type EvaluationPeriod,
  type FrameworkControl,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch, orgPath } from '../../lib/api';
import { describeError, notifyMessage } from '../../lib/notify';
import { useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { QueryStates } from '../../shell/query-status';
import { ListPager } from '../../shell/list-pager';
import {
  AUTO_EVIDENCE_HISTORY_PAGE_SIZE,
  autoEvidenceHistoryQuery,
  autoEvidenceQuery,
  periodPath,
} from './api';

const STATE_COLORS: Record<AutoEvidenceState, string> = { PASSING: 'green', FAILING: 'red', UNKNOWN: 'gray' };
const DEFAULT_WINDOW: Record<AutoEvidenceKind, number> = {
  TRIGGER_ACTIVE: 24,
  INCIDENTS_WITHIN_SLA: 90,
  ASSETS_INVENTORIED: 30,
  REVIEWS_DONE: 30,
};
const measuresShare = (kind: AutoEvidenceKind) =>
  kind === 'INCIDENTS_WITHIN_SLA' || kind === 'ASSETS_INVENTORIED';

export function AutoEvidenceStateBadge({ state }: { state: AutoEvidenceState }) {
  const { t } = useTranslation();
  return (
    <Badge size="sm" color={STATE_COLORS[state]} variant="light">
      {t(`governance.autoEvidence.states.${state}`)}
    </Badge>
  );
}

/**
 * Vigil's own data as living evidence of a control: its sources with their current state, reason and
 * recent evaluations; editors of a period in progress add, evaluate and remove them.
 */
export function AutoEvidenceSection({
  orgId,
  control,
  period,
  editable,
}: {
  orgId: string;
  control: FrameworkControl;
  period: EvaluationPeriod;
  editable: boolean;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const query = useQuery(autoEvidenceQuery(orgId, period.id, control.id));
  const [removing, setRemoving] = useState<AutoEvidenceSource | null>(null);
  const base = periodPath(orgId, period.id);
  const key = autoEvidenceQuery(orgId, period.id, control.id).queryKey;
  const evaluate = useMutation({
    mutationFn: (source: AutoEvidenceSource) =>
      apiFetch(`${base}/auto-evidence/${source.id}/evaluate`, {
        method: 'POST',
        schema: autoEvidenceSourceSchema,
      }),
    onSuccess: async () => {
      notifyMessage('governance.autoEvidence.evaluated');
      await queryClient.invalidateQueries({ queryKey: key });
    },
    meta: { errorKey: 'governance.autoEvidence.evaluateFailed' },
  });
  const remove = useMutation({
    mutationFn: (source: AutoEvidenceSource) =>
      apiFetch(`${base}/auto-evidence/${source.id}`, { method: 'DELETE' }),
    onSuccess: async () => {
      setRemoving(null);
      notifyMessage('governance.autoEvidence.removed');
      await queryClient.invalidateQueries({ queryKey: key });
    },
    meta: { errorKey: 'governance.autoEvidence.removeFailed' },
  });
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t('governance.autoEvidence.title')}
      </Title>
      <QueryStates
        query={query}
        loadingLabel={t('governance.autoEvidence.loading')}
        failedTitle={t('governance.autoEvidence.loadFailed')}
      >
        {(sources) =>
          sources.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('governance.autoEvidence.none')}
            </Text>
          ) : (
            <Stack gap="sm">
              {sources.map((source) => (
                <SourceItem
                  key={source.id}
                  orgId={orgId}
                  periodId={period.id}
                  source={source}
                  editable={editable}
                  evaluating={evaluate.isPending && evaluate.variables?.id === source.id}
                  onEvaluate={() => evaluate.mutate(source)}
                  onRemove={() => setRemoving(source)}
                />
              ))}
            </Stack>
          )
        }
      </QueryStates>
      {editable && <AddSource orgId={orgId} control={control} period={period} />}
      <ConfirmDialog
        opened={removing !== null}
        title={t('governance.autoEvidence.removeTitle')}
        message={t('governance.autoEvidence.removeMessage', {
          name: removing ? sourceName(removing, t) : '',
        })}
        confirmLabel={t('governance.autoEvidence.remove')}
        loading={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing)}
        onCancel={() => setRemoving(null)}
      />
    </Stack>
  );
}

type Translate = ReturnType<typeof useTranslation>['t'];

function sourceName(source: AutoEvidenceSource, t: Translate) {
  return t(`governance.autoEvidence.describe.${source.kind}`, {
    trigger: source.triggerName ?? '—',
    window: source.window,
    threshold: source.threshold ?? 0,
  });
}

type When = (iso: string) => string;

const evaluationLine = (item: AutoEvidenceEvaluation, when: When, t: Translate) =>
  `${when(item.evaluatedOn)} · ${t(`governance.autoEvidence.states.${item.state}`)} · ${item.reason}`;

/** Every evaluation of a source, newest first, a page at a time. */
function AllEvaluations({
  orgId,
  periodId,
  source,
  when,
}: {
  orgId: string;
  periodId: string;
  source: AutoEvidenceSource;
  when: When;
}) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const query = useQuery(autoEvidenceHistoryQuery(orgId, periodId, source.controlId, source.id, page));
  return (
    <QueryStates
      query={query}
      loadingLabel={t('governance.autoEvidence.historyLoading')}
      failedTitle={t('governance.autoEvidence.historyFailed')}
    >
      {(history) => (
        <Stack gap={4}>
          <List size="xs" spacing={2} aria-label={t('governance.autoEvidence.allHistory')}>
            {history.items.map((item) => (
              <List.Item key={item.evaluatedOn}>{evaluationLine(item, when, t)}</List.Item>
            ))}
          </List>
          <ListPager
            page={page}
            pageSize={AUTO_EVIDENCE_HISTORY_PAGE_SIZE}
            total={history.total}
            onChange={setPage}
          />
        </Stack>
      )}
    </QueryStates>
  );
}

function SourceItem({
  orgId,
  periodId,
  source,
  editable,
  evaluating,
  onEvaluate,
  onRemove,
}: {
  orgId: string;
  periodId: string;
  source: AutoEvidenceSource;
  editable: boolean;
  evaluating: boolean;
  onEvaluate: () => void;
  onRemove: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [current, ...earlier] = source.history;
  const [showAll, setShowAll] = useState(false);
  const name = sourceName(source, t);
  const when = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  return (
    <Stack gap={4} data-testid="auto-evidence-source">
      <Group gap="xs" justify="space-between" wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          {current && <AutoEvidenceStateBadge state={current.state} />}
          <Text size="sm" fw={500}>
            {name}
          </Text>
        </Group>
        {editable && (
          <Group gap={4} wrap="nowrap">
            <Button size="compact-xs" variant="default" loading={evaluating} onClick={onEvaluate}>
              {t('governance.autoEvidence.evaluate')}
            </Button>
            <Button
              size="compact-xs"
              variant="subtle"
              color="red"
              aria-label={t('governance.autoEvidence.removeNamed', { name })}
              onClick={onRemove}
            >
              {t('governance.autoEvidence.remove')}
            </Button>
          </Group>
        )}
      </Group>
      {current ? (
        <Text size="sm">
          {current.reason}{' '}
          <Text span size="xs" c="dimmed">
            {t('governance.autoEvidence.evaluatedOn', { date: when(current.evaluatedOn) })}
          </Text>
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          {t('governance.autoEvidence.notEvaluated')}
        </Text>
      )}
      {showAll ? (
        <AllEvaluations orgId={orgId} periodId={periodId} source={source} when={when} />
      ) : (
        earlier.length > 0 && (
          <List size="xs" spacing={2} aria-label={t('governance.autoEvidence.history')}>
            {earlier.map((item) => (
              <List.Item key={item.evaluatedOn}>{evaluationLine(item, when, t)}</List.Item>
            ))}
          </List>
        )
      )}
      {source.historyTotal > source.history.length && (
        <Button
          size="compact-xs"
          variant="subtle"
          style={{ alignSelf: 'flex-start' }}
          onClick={() => setShowAll(!showAll)}
        >
          {showAll
            ? t('governance.autoEvidence.latestOnly')
            : t('governance.autoEvidence.showAll', { count: source.historyTotal })}
        </Button>
      )}
    </Stack>
  );
}

function AddSource({
  orgId,
  control,
  period,
}: {
  orgId: string;
  control: FrameworkControl;
  period: EvaluationPeriod;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const canSeeTriggers = useHasPermission('TRIGGER_VIEW');
  const [kind, setKind] = useState<AutoEvidenceKind>('TRIGGER_ACTIVE');
  const [triggerId, setTriggerId] = useState<string | null>(null);
  const [window, setWindow] = useState<number | string>(DEFAULT_WINDOW.TRIGGER_ACTIVE);
  const [threshold, setThreshold] = useState<number | string>(90);
  const triggers = useQuery({
    queryKey: ['triggers', orgId, 'governance-picker'],
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/triggers?pageSize=500`, { schema: triggerListSchema, signal }),
    enabled: canSeeTriggers && kind === 'TRIGGER_ACTIVE',
  });
  const add = useMutation({
    mutationFn: () =>
      apiFetch(`${periodPath(orgId, period.id)}/control/${control.id}/auto-evidence`, {
        method: 'POST',
        body: {
          kind,
          triggerId: kind === 'TRIGGER_ACTIVE' ? triggerId : null,
          window: Number(window),
          threshold: measuresShare(kind) ? Number(threshold) : null,
        },
        schema: autoEvidenceSourceSchema,
      }),
    onSuccess: async () => {
      notifyMessage('governance.autoEvidence.added');
      await queryClient.invalidateQueries({
        queryKey: autoEvidenceQuery(orgId, period.id, control.id).queryKey,
      });
    },
    meta: { notifyError: false },
  });
  const hours = kind === 'TRIGGER_ACTIVE';
  const range = hours ? AUTO_EVIDENCE_LIMITS.windowHours : AUTO_EVIDENCE_LIMITS.windowDays;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        add.mutate();
      }}
    >
      <Stack gap="xs">
        <Group align="flex-end" gap="xs">
          <Select
            size="xs"
            label={t('governance.autoEvidence.kind')}
            allowDeselect={false}
            data={AUTO_EVIDENCE_KINDS.map((value) => ({
              value,
              label: t(`governance.autoEvidence.kinds.${value}`),
            }))}
            value={kind}
            onChange={(value) => {
              if (!value) return;
              const next = value as AutoEvidenceKind;
              setKind(next);
              setWindow(DEFAULT_WINDOW[next]);
            }}
          />
          {hours && (
            <Select
              size="xs"
              label={t('governance.autoEvidence.trigger')}
              searchable
              data={(triggers.data?.items ?? []).map((trigger) => ({
                value: trigger.id,
                label: trigger.name,
              }))}
              value={triggerId}
              onChange={setTriggerId}
            />
          )}
          <NumberInput
            size="xs"
            w={110}
            label={t(hours ? 'governance.autoEvidence.windowHours' : 'governance.autoEvidence.windowDays')}
            min={range.min}
            max={range.max}
            value={window}
            onChange={setWindow}
          />
          {measuresShare(kind) && (
            <NumberInput
              size="xs"
              w={110}
              label={t('governance.autoEvidence.threshold')}
              min={AUTO_EVIDENCE_LIMITS.threshold.min}
              max={AUTO_EVIDENCE_LIMITS.threshold.max}
              suffix="%"
              value={threshold}
              onChange={setThreshold}
            />
          )}
          <Button size="xs" type="submit" variant="default" loading={add.isPending}>
            {t('governance.autoEvidence.add')}
          </Button>
        </Group>
        {add.error && (
          <Text size="sm" c="red" role="alert">
            {describeError(add.error, t)}
          </Text>
        )}
      </Stack>
    </form>
  );
}
