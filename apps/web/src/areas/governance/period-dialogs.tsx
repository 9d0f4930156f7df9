import { Button, Group, Modal, Select, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  carryOverResultSchema,
  CROSSWALK_SOURCES,
  DEFAULT_PAGE_SIZE,
  evaluationPeriodSchema,
  type CarryOverResult,
  type EvaluationPeriod,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, apiFetch } from '../../lib/api';
import { describeError, notifyMessage } from '../../lib/notify';
import { ListPager } from '../../shell/list-pager';
import { QueryStates } from '../../shell/query-status';
import {
  comparisonQuery,
  frameworkPath,
  frameworksQuery,
  governanceKey,
  periodPath,
  periodsQuery,
} from './api';
import { StatusBadge } from './status-badge';

const today = () => new Date().toISOString().slice(0, 10);
const yearFrom = (start: string) => {
  const date = new Date(`${start}T00:00:00Z`);
  date.setUTCFullYear(date.getUTCFullYear() + 1);
  date.setUTCDate(date.getUTCDate() - 1);
  return date.toISOString().slice(0, 10);
};

/** Starts an evaluation period: a name, a start and an end (a year by default). */
export function NewPeriodDialog({
  orgId,
  frameworkId,
  onClose,
  onCreated,
}: {
  orgId: string;
  frameworkId: string;
  onClose: () => void;
  onCreated: (period: EvaluationPeriod) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [startsOn, setStartsOn] = useState(today());
  const [endsOn, setEndsOn] = useState(yearFrom(today()));
  const [submitted, setSubmitted] = useState(false);
  const create = useMutation({
    mutationFn: () =>
      apiFetch(`${frameworkPath(orgId, frameworkId)}/period`, {
        method: 'POST',
        body: { name: name.trim(), startsOn, endsOn },
        schema: evaluationPeriodSchema,
      }),
    onSuccess: async (period) => {
      notifyMessage('governance.periods.created');
      await queryClient.invalidateQueries({ queryKey: governanceKey(orgId) });
      onCreated(period);
      onClose();
    },
    meta: { notifyError: false },
  });
  const serverError = create.error ? describeError(create.error, t) : null;
  const datesRefused =
    create.error instanceof ApiRequestError && create.error.error.key === 'GOVERNANCE_PERIOD_INVALID_DATES';
  return (
    <Modal opened onClose={onClose} title={t('governance.periods.newTitle')}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
          if (name.trim() && startsOn && endsOn) create.mutate();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('governance.periods.name')}
            required
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={submitted && !name.trim() ? t('ERROR_REQUIRED') : undefined}
          />
          <Group grow>
            <TextInput
              type="date"
              label={t('governance.periods.startsOn')}
              required
              value={startsOn}
              onChange={(event) => setStartsOn(event.currentTarget.value)}
            />
            <TextInput
              type="date"
              label={t('governance.periods.endsOn')}
              required
              value={endsOn}
              onChange={(event) => setEndsOn(event.currentTarget.value)}
              error={datesRefused ? serverError : undefined}
            />
          </Group>
          {serverError && !datesRefused && (
            <Text size="sm" c="red" role="alert">
              {serverError}
            </Text>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('governance.periods.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Two periods side by side, control by control; by default only the controls whose answer changed. */
export function ComparePeriodsDialog({
  orgId,
  periods,
  current,
  onClose,
}: {
  orgId: string;
  periods: EvaluationPeriod[];
  current: EvaluationPeriod;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const others = periods.filter((period) => period.id !== current.id);
  const [fromId, setFromId] = useState(others[0]?.id ?? '');
  const [changedOnly, setChangedOnly] = useState(true);
  const [page, setPage] = useState(1);
  const comparison = useQuery({ ...comparisonQuery(orgId, fromId, current.id), enabled: fromId !== '' });
  return (
    <Modal opened onClose={onClose} title={t('governance.compare.title', { name: current.name })} size="xl">
      <Stack gap="sm">
        <Group align="flex-end">
          <Select
            label={t('governance.compare.with')}
            allowDeselect={false}
            data={others.map((period) => ({ value: period.id, label: period.name }))}
            value={fromId}
            onChange={(value) => {
              setFromId(value ?? '');
              setPage(1);
            }}
          />
          <Switch
            label={t('governance.compare.changedOnly')}
            checked={changedOnly}
            onChange={(event) => {
              setChangedOnly(event.currentTarget.checked);
              setPage(1);
            }}
          />
        </Group>
        <QueryStates
          query={comparison}
          loadingLabel={t('governance.compare.loading')}
          failedTitle={t('governance.compare.loadFailed')}
        >
          {(data) => {
            const rows = changedOnly ? data.rows.filter((row) => row.from !== row.to) : data.rows;
            if (rows.length === 0) return <Text size="sm">{t('governance.compare.noChanges')}</Text>;
            return (
              <>
                <Table striped>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('governance.controls.control')}</Table.Th>
                      <Table.Th>{data.from.name}</Table.Th>
                      <Table.Th>{data.to.name}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {rows.slice((page - 1) * DEFAULT_PAGE_SIZE, page * DEFAULT_PAGE_SIZE).map((row) => (
                      <Table.Tr key={row.controlId}>
                        <Table.Td>
                          <Text size="sm" fw={500}>
                            {row.ref}
                          </Text>
                          {row.title !== row.ref && <Text size="xs">{row.title}</Text>}
                        </Table.Td>
                        <Table.Td>
                          <StatusBadge status={row.from} />
                        </Table.Td>
                        <Table.Td>
                          <StatusBadge status={row.to} />
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
                <ListPager page={page} pageSize={DEFAULT_PAGE_SIZE} total={rows.length} onChange={setPage} />
              </>
            );
          }}
        </QueryStates>
      </Stack>
    </Modal>
  );
}

/**
 * Carries the answers of an FFIEC CAT or CISA CPG period over to this CSF 2.0 period as suggestions,
 * which stay unanswered until someone reviews and saves each one.
 */
export function CarryOverDialog({
  orgId,
  period,
  onClose,
}: {
  orgId: string;
  period: EvaluationPeriod;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const frameworks = useQuery(frameworksQuery(orgId));
  const sources = (frameworks.data ?? []).filter((framework) =>
    (CROSSWALK_SOURCES as readonly string[]).includes(framework.libraryKey ?? ''),
  );
  const [frameworkId, setFrameworkId] = useState<string | null>(null);
  const [fromPeriodId, setFromPeriodId] = useState<string | null>(null);
  const sourcePeriods = useQuery({
    ...periodsQuery(orgId, frameworkId ?? ''),
    enabled: frameworkId !== null,
  });
  const [result, setResult] = useState<CarryOverResult | null>(null);
  const carry = useMutation({
    mutationFn: () =>
      apiFetch(`${periodPath(orgId, period.id)}/carry-over`, {
        method: 'POST',
        body: { fromPeriodId },
        schema: carryOverResultSchema,
      }),
    onSuccess: async (answer) => {
      setResult(answer);
      await queryClient.invalidateQueries({ queryKey: governanceKey(orgId) });
    },
    meta: { errorKey: 'governance.carryOver.failed' },
  });
  return (
    <Modal opened onClose={onClose} title={t('governance.carryOver.title', { name: period.name })}>
      {result ? (
        <Stack gap="sm">
          <Text size="sm" role="status">
            {t('governance.carryOver.done', { count: result.suggested, answered: result.alreadyAnswered })}
          </Text>
          <Group justify="flex-end">
            <Button onClick={onClose}>{t('common.close')}</Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="sm">
          <Text size="sm">{t('governance.carryOver.intro')}</Text>
          <QueryStates
            query={frameworks}
            loadingLabel={t('governance.frameworks.loading')}
            failedTitle={t('governance.frameworks.loadFailed')}
          >
            {() =>
              sources.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t('governance.carryOver.noSource')}
                </Text>
              ) : (
                <>
                  <Select
                    label={t('governance.carryOver.framework')}
                    data={sources.map((framework) => ({ value: framework.id, label: framework.name }))}
                    value={frameworkId}
                    onChange={(value) => {
                      setFrameworkId(value);
                      setFromPeriodId(null);
                    }}
                  />
                  <Select
                    label={t('governance.carryOver.period')}
                    disabled={frameworkId === null}
                    data={(sourcePeriods.data ?? []).map((item) => ({ value: item.id, label: item.name }))}
                    value={fromPeriodId}
                    onChange={setFromPeriodId}
                  />
                </>
              )
            }
          </QueryStates>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button disabled={fromPeriodId === null} loading={carry.isPending} onClick={() => carry.mutate()}>
              {t('governance.carryOver.carry')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
