import { ActionIcon, Button, Group, Modal, Paper, Select, Stack, Text } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconX } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { REPORT_TEMPLATE_MAX_CHARTS, reportTemplateSchema, type ReportTemplate } from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { chartsQuery } from '../dashboards/api';
import { NameFields } from '../dashboards/name-fields';
import { reportsKey, templatePath } from './api';

interface Picked {
  id: string;
  name: string;
}

/**
 * Creates or changes a report template: its name and the charts it shows, picked and put in order.
 * A library template (provider administrators) takes library charts only.
 */
export function TemplateDialog({
  orgId,
  library = false,
  template,
  onClose,
}: {
  orgId: string;
  library?: boolean;
  template: ReportTemplate | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState(template?.name ?? '');
  const [description, setDescription] = useState(template?.description ?? '');
  const [picked, setPicked] = useState<Picked[]>(
    template?.charts
      .filter((chart) => chart.live)
      .map(({ id, name: chartName }) => ({ id, name: chartName })) ?? [],
  );
  const charts = useQuery(chartsQuery(orgId, { pageSize: 500, pageNumber: 1, library }));
  const available = (charts.data?.items ?? []).filter(
    (chart) => !picked.some((entry) => entry.id === chart.id),
  );
  const full = picked.length >= REPORT_TEMPLATE_MAX_CHARTS;
  const moveBy = (index: number, step: number) =>
    setPicked((current) => {
      const next = [...current];
      const [entry] = next.splice(index, 1);
      next.splice(index + step, 0, entry!);
      return next;
    });
  const save = useMutation({
    mutationFn: () =>
      apiFetch(template ? templatePath(orgId, template.id) : templatePath(orgId), {
        method: template ? 'PUT' : 'POST',
        body: { name, description, chartIds: picked.map((entry) => entry.id), library },
        schema: reportTemplateSchema,
      }),
    onSuccess: async () => {
      notifyMessage(template ? 'reports.templates.updated' : 'reports.templates.created');
      await queryClient.invalidateQueries({ queryKey: reportsKey(orgId) });
      onClose();
    },
    meta: { errorKey: 'reports.templates.saveFailed' },
  });
  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={t(
        library
          ? 'reports.templates.libraryTitle'
          : template
            ? 'reports.templates.editTitle'
            : 'reports.templates.newTitle',
      )}
    >
      <Stack gap="sm">
        <NameFields
          labels={{ name: t('reports.name'), description: t('reports.templates.description') }}
          name={name}
          onName={setName}
          description={description}
          onDescription={setDescription}
        />
        <Select
          label={t('reports.templates.addChart')}
          description={t('reports.templates.addChartHint', { max: REPORT_TEMPLATE_MAX_CHARTS })}
          placeholder={charts.isPending ? t('charts.loading') : t('reports.templates.pickChart')}
          data={available.map((chart) => ({ value: chart.id, label: chart.name }))}
          value={null}
          onChange={(id) => {
            const chart = available.find((entry) => entry.id === id);
            if (chart) setPicked((current) => [...current, { id: chart.id, name: chart.name }]);
          }}
          disabled={full}
          searchable
        />
        <Stack gap={4} aria-label={t('reports.templates.chartOrder')} role="list">
          {picked.length === 0 && (
            <Text size="sm" c="red">
              {t('REPORT_TEMPLATE_NEEDS_CHART')}
            </Text>
          )}
          {picked.map((entry, index) => (
            <Paper key={entry.id} withBorder p={6} role="listitem">
              <Group justify="space-between" wrap="nowrap">
                <Text size="sm">
                  {index + 1}. {entry.name}
                </Text>
                <Group gap={2} wrap="nowrap">
                  <ActionIcon
                    variant="subtle"
                    aria-label={t('reports.templates.moveUp', { name: entry.name })}
                    disabled={index === 0}
                    onClick={() => moveBy(index, -1)}
                  >
                    <IconArrowUp size={16} />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    aria-label={t('reports.templates.moveDown', { name: entry.name })}
                    disabled={index === picked.length - 1}
                    onClick={() => moveBy(index, 1)}
                  >
                    <IconArrowDown size={16} />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('reports.templates.remove', { name: entry.name })}
                    onClick={() => setPicked((current) => current.filter((other) => other.id !== entry.id))}
                  >
                    <IconX size={16} />
                  </ActionIcon>
                </Group>
              </Group>
            </Paper>
          ))}
        </Stack>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            loading={save.isPending}
            disabled={!name.trim() || picked.length === 0}
            onClick={() => save.mutate()}
          >
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
