import { Alert, Button, Stack } from '@mantine/core';
import { useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { describeError } from '../lib/notify';

/** Shown in place of a page that failed to load or render, for example after a deployment replaced its chunk. */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const { t } = useTranslation();
  const router = useRouter();
  return (
    <Alert color="red" title={t('errors.pageFailed')} maw={640}>
      <Stack align="flex-start" gap="sm">
        {describeError(error, t)}
        <Button
          variant="light"
          color="red"
          onClick={() => {
            reset();
            void router.invalidate();
          }}
        >
          {t('errors.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}
