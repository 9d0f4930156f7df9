import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { describeError } from '../lib/notify';

/** A list or form that is still loading: a small spinner and what is being loaded. */
export function LoadingLine({ label }: { label: string }) {
  return (
    <Group gap="xs">
      <Loader size="sm" />
      <Text size="sm">{label}</Text>
    </Group>
  );
}

/** A load that failed: what failed, the catalogue message of why, and a way to try again. */
export function LoadFailed({
  title,
  error,
  onRetry,
}: {
  title: string;
  error: unknown;
  onRetry?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Alert color="red" title={title}>
      <Stack align="flex-start" gap="xs">
        {describeError(error, t)}
        {onRetry && (
          <Button size="xs" variant="light" color="red" onClick={onRetry}>
            {t('errors.retry')}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}
