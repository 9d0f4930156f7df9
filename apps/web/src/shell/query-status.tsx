import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
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

/** The states of a query, in the order every page shows them: loading, failed with a retry, or the data. */
export function QueryStates<T>({
  query,
  loadingLabel,
  failedTitle,
  children,
}: {
  query: UseQueryResult<T>;
  loadingLabel: string;
  failedTitle: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <LoadingLine label={loadingLabel} />;
  if (query.isError) {
    return <LoadFailed title={failedTitle} error={query.error} onRetry={() => void query.refetch()} />;
  }
  return children(query.data);
}

/**
 * The states of a list query, in the order every list page shows them: loading, failed with a retry,
 * empty, or the rows.
 */
export function ListStates<T extends { items: readonly unknown[] }>({
  empty,
  children,
  ...states
}: {
  query: UseQueryResult<T>;
  loadingLabel: string;
  failedTitle: string;
  empty: ReactNode;
  children: (data: T) => ReactNode;
}) {
  return (
    <QueryStates {...states}>{(data) => (data.items.length === 0 ? empty : children(data))}</QueryStates>
  );
}
