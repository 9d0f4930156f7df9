import { Badge, Group } from '@mantine/core';
import type { ControlAnswerStatus } from '@vigil/contracts';
import { useTranslation } from 'react-i18next';

export const STATUS_COLORS: Record<ControlAnswerStatus, string> = {
  IMPLEMENTED: 'green',
  PARTIALLY_IMPLEMENTED: 'yellow',
  NOT_IMPLEMENTED: 'red',
  NOT_APPLICABLE: 'gray',
};

/** A control's answer, or "Not answered"; a suggestion still to review is shown beside it. */
export function StatusBadge({
  status,
  suggested,
}: {
  status: ControlAnswerStatus | null;
  suggested?: ControlAnswerStatus;
}) {
  const { t } = useTranslation();
  return (
    <Group gap={4}>
      {status ? (
        <Badge color={STATUS_COLORS[status]} variant="light">
          {t(`governance.statuses.${status}`)}
        </Badge>
      ) : (
        <Badge color="gray" variant="outline">
          {t('governance.statuses.none')}
        </Badge>
      )}
      {!status && suggested && (
        <Badge color="violet" variant="dot">
          {t('governance.statuses.suggested', { status: t(`governance.statuses.${suggested}`) })}
        </Badge>
      )}
    </Group>
  );
}
