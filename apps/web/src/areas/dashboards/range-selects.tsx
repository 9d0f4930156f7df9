import { Select } from '@mantine/core';
import { DASHBOARD_REFRESH_SECONDS, SEARCH_INTERVAL_TYPES, type SearchIntervalType } from '@vigil/contracts';
import { useTranslation } from 'react-i18next';

/** A dashboard's time range: the report ranges of the spec. */
export function RangeSelect({
  value,
  onChange,
  w,
}: {
  value: SearchIntervalType;
  onChange: (value: SearchIntervalType) => void;
  w?: number;
}) {
  const { t } = useTranslation();
  return (
    <Select
      label={t('dashboards.range')}
      data={SEARCH_INTERVAL_TYPES.map((range) => ({ value: range, label: t(`dashboards.ranges.${range}`) }))}
      value={value}
      onChange={(next) => next && onChange(next as SearchIntervalType)}
      allowDeselect={false}
      w={w}
    />
  );
}

/** A dashboard's auto-refresh: off, every minute, 5 or 15 minutes. */
export function RefreshSelect({
  value,
  onChange,
  w,
}: {
  value: number;
  onChange: (value: number) => void;
  w?: number;
}) {
  const { t } = useTranslation();
  return (
    <Select
      label={t('dashboards.autoRefresh')}
      data={DASHBOARD_REFRESH_SECONDS.map((seconds) => ({
        value: String(seconds),
        label: t(`dashboards.refreshEvery.${seconds}`),
      }))}
      value={String(value)}
      onChange={(next) => next && onChange(Number(next))}
      allowDeselect={false}
      w={w}
    />
  );
}
