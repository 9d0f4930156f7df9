import { Badge } from '@mantine/core';
import type { AlertState } from '@vigil/contracts';
import { useTranslation } from 'react-i18next';

const SEVERITY_COLOURS: Record<string, string> = {
  CRITICAL: 'red',
  HIGH: 'orange',
  MEDIUM: 'yellow',
  LOW: 'blue',
  INFO: 'gray',
};

const STATE_COLOURS: Record<AlertState, string> = {
  NEW: 'blue',
  ACKED: 'teal',
  ESCALATED: 'grape',
  DISMISSED: 'gray',
  FRAUD_FLAGGED: 'red',
};

export function SeverityBadge({ severity }: { severity: string }) {
  const { t, i18n } = useTranslation();
  const key = `alerts.severities.${severity}`;
  return (
    <Badge color={SEVERITY_COLOURS[severity] ?? 'gray'} variant="light">
      {i18n.exists(key) ? t(key) : severity}
    </Badge>
  );
}

export function StateBadge({ state }: { state: AlertState }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATE_COLOURS[state]} variant="outline">
      {t(`alerts.states.${state}`)}
    </Badge>
  );
}
