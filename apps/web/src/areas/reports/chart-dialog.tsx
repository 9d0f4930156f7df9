import { Badge, Button, Group, Modal, MultiSelect, NumberInput, Select, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CHART_ALERT_FAMILIES,
  CHART_EVENTS_TABLE_MAX,
  CHART_FAMILIES,
  CHART_FAMILY_TYPES,
  CHART_LIST_MAX_ROWS,
  CHART_PREMIUM_FAMILIES,
  chartDataSchema,
  chartSchema,
  type Chart,
  type ChartData,
  type ChartDomain,
  type ChartFamily,
  type ChartType,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { useHasSku } from '../../lib/org-context';
import { notifyMessage } from '../../lib/notify';
import { orgPath } from '../assets/queries';
import { chartPath, dashboardsKey } from '../dashboards/api';
import { ChartFigure } from '../dashboards/chart-figure';
import { savedQueriesQuery } from '../events/saved-queries';
import { NameFields } from '../dashboards/name-fields';

/**
 * Creates or changes a chart, with a preview over the last 7 days. A library chart (provider
 * administrators) draws library queries only.
 */
export function ChartDialog({
  orgId,
  library = false,
  chart,
  onClose,
}: {
  orgId: string;
  library?: boolean;
  chart: Chart | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const hasFraud = useHasSku('fraud');
  const hasPremium = useHasSku('reportingPremium');
  const [name, setName] = useState(chart?.name ?? '');
  const [description, setDescription] = useState(chart?.description ?? '');
  const [family, setFamily] = useState<ChartFamily>(chart?.family ?? 'SAVED_QUERIES');
  const [type, setType] = useState<ChartType>(chart?.type ?? 'bar');
  const [savedQueryIds, setSavedQueryIds] = useState<string[]>(chart?.savedQueryIds ?? []);
  const [domain, setDomain] = useState<ChartDomain>(chart?.domain ?? 'security');
  const [rowLimit, setRowLimit] = useState<number | string>(chart?.rowLimit ?? 10);
  const [preview, setPreview] = useState<{ type: ChartType; data: ChartData } | null>(null);
  const queries = useQuery({
    ...savedQueriesQuery(orgId, { pageSize: 500, pageNumber: 1 }),
    enabled: family === 'SAVED_QUERIES',
  });
  const types = CHART_FAMILY_TYPES[family];
  const listMax = CHART_LIST_MAX_ROWS[family];
  const usesRows = type === 'events_table' || listMax !== undefined;
  const body = () => ({
    name,
    description,
    type,
    family,
    savedQueryIds: family === 'SAVED_QUERIES' ? savedQueryIds : [],
    domain,
    rowLimit: usesRows && rowLimit !== '' ? Number(rowLimit) : null,
    library,
  });
  const save = useMutation({
    mutationFn: () =>
      apiFetch(chart ? chartPath(orgId, chart.id) : chartPath(orgId), {
        method: chart ? 'PUT' : 'POST',
        body: body(),
        schema: chartSchema,
      }),
    onSuccess: async () => {
      notifyMessage(chart ? 'charts.done.update' : 'charts.done.create');
      await queryClient.invalidateQueries({ queryKey: dashboardsKey(orgId) });
      onClose();
    },
    meta: { errorKey: 'charts.saveFailed' },
  });
  const runPreview = useMutation({
    mutationFn: () =>
      apiFetch(`${orgPath(orgId)}/chart/preview`, {
        method: 'POST',
        body: { chart: body(), range: { intervalType: '7D' } },
        schema: chartDataSchema,
      }),
    onSuccess: (data) => setPreview({ type, data }),
    meta: { errorKey: 'charts.previewFailed' },
  });

  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={t(library ? 'charts.libraryTitle' : chart ? 'charts.editTitle' : 'charts.newTitle')}
    >
      <Stack gap="sm">
        <NameFields
          labels={{ name: t('charts.name'), description: t('charts.description') }}
          name={name}
          onName={setName}
          description={description}
          onDescription={setDescription}
        />
        <Group grow>
          <Select
            label={t('charts.family')}
            description={
              CHART_PREMIUM_FAMILIES.includes(family)
                ? t(hasPremium || library ? 'charts.premiumHint' : 'charts.premiumMissing')
                : undefined
            }
            data={CHART_FAMILIES.map((value) => {
              const premium = CHART_PREMIUM_FAMILIES.includes(value);
              return {
                value,
                label: premium
                  ? t('charts.premiumFamily', { name: t(`charts.families.${value}`) })
                  : t(`charts.families.${value}`),
                // Premium-only sources are offered to organisations with Reporting Premium; library
                // charts may use them (they draw in premium organisations only).
                disabled: premium && !hasPremium && !library && value !== chart?.family,
              };
            })}
            renderOption={({ option }) => {
              const premium = CHART_PREMIUM_FAMILIES.includes(option.value as ChartFamily);
              return (
                <Group gap="xs" wrap="nowrap">
                  <span>{t(`charts.families.${option.value}`)}</span>
                  {premium && (
                    <Badge size="xs" variant="light" color="grape">
                      {t('workspaces.labels.PREMIUM_ONLY')}
                    </Badge>
                  )}
                </Group>
              );
            }}
            value={family}
            onChange={(value) => {
              if (!value) return;
              const next = value as ChartFamily;
              setFamily(next);
              if (!CHART_FAMILY_TYPES[next].includes(type)) setType(CHART_FAMILY_TYPES[next][0]!);
            }}
            allowDeselect={false}
          />
          <Select
            label={t('charts.type')}
            data={types.map((value) => ({ value, label: t(`charts.types.${value}`) }))}
            value={type}
            onChange={(value) => value && setType(value as ChartType)}
            allowDeselect={false}
          />
        </Group>
        {family === 'SAVED_QUERIES' ? (
          <MultiSelect
            label={t('charts.queries')}
            description={t('charts.queriesHint')}
            data={(queries.data?.items ?? [])
              .filter((query) => !library || query.library)
              .map((query) => ({
                value: query.id,
                label: query.aggregation ? `${query.name} (${query.aggregation.type})` : query.name,
              }))}
            value={savedQueryIds}
            onChange={setSavedQueryIds}
            searchable
          />
        ) : (
          hasFraud &&
          CHART_ALERT_FAMILIES.includes(family) && (
            <Select
              label={t('charts.domain')}
              data={[
                { value: 'security', label: t('charts.domains.security') },
                { value: 'fraud', label: t('charts.domains.fraud') },
              ]}
              value={domain}
              onChange={(value) => value && setDomain(value as ChartDomain)}
              allowDeselect={false}
            />
          )
        )}
        {usesRows && (
          <NumberInput
            label={
              type === 'events_table'
                ? t('charts.eventCount')
                : t('charts.rowCount', { max: (listMax ?? 0).toLocaleString('en') })
            }
            value={rowLimit}
            onChange={setRowLimit}
            min={1}
            max={type === 'events_table' ? CHART_EVENTS_TABLE_MAX : listMax}
          />
        )}
        {preview && (
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('charts.previewTitle')}
            </Text>
            <ChartFigure type={preview.type} data={preview.data} height={200} />
          </Stack>
        )}
        <Group justify="space-between">
          <Button variant="subtle" loading={runPreview.isPending} onClick={() => runPreview.mutate()}>
            {t('charts.preview')}
          </Button>
          <Group>
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button loading={save.isPending} disabled={!name.trim()} onClick={() => save.mutate()}>
              {t('common.save')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
