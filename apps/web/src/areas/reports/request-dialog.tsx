import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { REPORT_RANGES, reportSchema, type ReportRange } from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { reportPath, reportsKey, templatesQuery } from './api';

/** Every template of the organisation, for the pickers (templates are few). */
export function useTemplateOptions(orgId: string, library = false) {
  const templates = useQuery(templatesQuery(orgId, { pageSize: 500, pageNumber: 1, library }));
  return {
    templates,
    options: (templates.data?.items ?? []).map((template) => ({ value: template.id, label: template.name })),
  };
}

export function RangePicker({
  value,
  onChange,
}: {
  value: ReportRange;
  onChange: (range: ReportRange) => void;
}) {
  const { t } = useTranslation();
  return (
    <Select
      label={t('reports.range')}
      data={REPORT_RANGES.map((range) => ({ value: range, label: t(`dashboards.ranges.${range}`) }))}
      value={value}
      onChange={(next) => next && onChange(next as ReportRange)}
      allowDeselect={false}
    />
  );
}

/** Requests an on-demand report of a template over a range; the list then shows it being built. */
export function RequestDialog({ orgId, onClose }: { orgId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { templates, options } = useTemplateOptions(orgId);
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [range, setRange] = useState<ReportRange>('7D');
  const request = useMutation({
    mutationFn: () =>
      apiFetch(reportPath(orgId), { method: 'POST', body: { templateId, range }, schema: reportSchema }),
    onSuccess: async () => {
      notifyMessage('reports.requested');
      await queryClient.invalidateQueries({ queryKey: reportsKey(orgId) });
      onClose();
    },
    meta: { errorKey: 'reports.requestFailed' },
  });
  return (
    <Modal opened onClose={onClose} title={t('reports.requestTitle')}>
      <Stack gap="sm">
        <Select
          label={t('reports.template')}
          placeholder={templates.isPending ? t('reports.loadingTemplates') : undefined}
          data={options}
          value={templateId}
          onChange={setTemplateId}
          searchable
          required
          data-autofocus
        />
        {templates.isSuccess && options.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('reports.noTemplates')}
          </Text>
        )}
        <RangePicker value={range} onChange={setRange} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button loading={request.isPending} disabled={!templateId} onClick={() => request.mutate()}>
            {t('reports.requestSubmit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
