import { Alert, Button, Code, Group, Stack, Text, Textarea } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { QUERY_MAX_LENGTH } from '@vigil/query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface QuerySyntaxError {
  message: string;
  /** Zero-based offset of the fault in `query`. */
  position: number;
  query: string;
}

/** A query's syntax error: the parser's message and the query with a caret under the fault. */
export function QueryErrorMarker({ error }: { error: QuerySyntaxError }) {
  const { t } = useTranslation();
  const at = Math.max(0, Math.min(error.position, error.query.length));
  return (
    <Alert color="red" title={t('events.search.invalidQuery')} role="alert">
      <Stack gap={4}>
        <Text size="sm">{error.message}</Text>
        <Code block aria-label={t('events.search.errorAt', { position: at + 1 })} data-testid="query-caret">
          {error.query.slice(0, at)}
          <Text span c="red" fw={700} td="underline">
            {error.query.slice(at, at + 1) || ' '}
          </Text>
          {error.query.slice(at + 1)}
          {'\n'}
          {' '.repeat(at)}^
        </Code>
      </Stack>
    </Alert>
  );
}

/**
 * The query box: Enter runs the search (Shift+Enter starts a new line); `children` sits beside the
 * Search button (the range controls).
 */
export function QueryBar({
  value,
  onChange,
  onSubmit,
  error,
  running,
  children,
}: {
  value: string;
  onChange: (value: string) => void;
  onSubmit: () => void;
  error: QuerySyntaxError | null;
  running: boolean;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        <Group align="flex-end" gap="sm" wrap="wrap">
          <Textarea
            label={t('events.search.query')}
            placeholder={t('events.search.queryPlaceholder')}
            value={value}
            onChange={(event) => onChange(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                event.preventDefault();
                onSubmit();
              }
            }}
            autosize
            minRows={1}
            maxRows={6}
            maxLength={QUERY_MAX_LENGTH}
            error={error !== null}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            style={{ flex: '1 1 420px' }}
          />
          {children}
          <Button type="submit" leftSection={<IconSearch size={16} />} loading={running}>
            {t('events.search.run')}
          </Button>
        </Group>
      </form>
      {error && <QueryErrorMarker error={error} />}
    </Stack>
  );
}
