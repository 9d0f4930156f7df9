import { Badge } from '@mantine/core';
import type { IntegrationStatus } from '@vigil/contracts';
import { useTranslation } from 'react-i18next';

const STATUS_COLORS: Record<IntegrationStatus, string> = {
  WAITING_FIRST_FILE: 'blue',
  NO_DATA: 'gray',
  RECEIVING: 'green',
  STALE: 'orange',
  ERROR: 'red',
  VALIDATED: 'green',
};

export function IntegrationStatusBadge({ status }: { status: IntegrationStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLORS[status]} variant="light">
      {t(`settings.integrations.statuses.${status}`)}
    </Badge>
  );
}

export function useDateTime() {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (value: string | null) => (value ? format.format(new Date(value)) : null);
}
