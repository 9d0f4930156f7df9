import {
  ActionIcon,
  Badge,
  Box,
  Group,
  Loader,
  Pill,
  Stack,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconColumns, IconMinus, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { SearchFilter } from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../lib/notify';
import { LoadFailed, LoadingLine } from '../../shell/query-status';
import { fieldValuesQuery, searchFieldsQuery, type SearchScope } from './queries';
import { FIXED_COLUMNS } from './search-params';

export type AddFilter = (field: string, value: string, exclude: boolean) => void;

/**
 * The fields of the latest events of the search with how many sampled events hold each; expanding one
 * lists its top values, each of which can be included in or excluded from the search.
 */
export function FieldSidebar({
  orgId,
  scope,
  onFilter,
  columns = [],
  onAddColumn,
}: {
  orgId: string;
  scope: SearchScope;
  onFilter: AddFilter;
  /** The field columns shown; the others can be added with `onAddColumn`. */
  columns?: readonly string[];
  onAddColumn?: (field: string) => void;
}) {
  const { t } = useTranslation();
  const fields = useQuery(searchFieldsQuery(orgId, scope));
  const [open, setOpen] = useState<string | null>(null);
  return (
    <Stack gap={4} component="nav" aria-label={t('events.fields.title')}>
      <Text fw={600} size="sm">
        {t('events.fields.title')}
      </Text>
      {fields.isPending ? (
        <LoadingLine label={t('events.fields.loading')} />
      ) : fields.isError ? (
        <LoadFailed
          title={t('events.fields.loadFailed')}
          error={fields.error}
          onRetry={() => void fields.refetch()}
        />
      ) : fields.data.fields.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('events.fields.none')}
        </Text>
      ) : (
        <>
          <Text size="xs" c="dimmed">
            {t('events.fields.sample', { count: fields.data.sampleSize })}
          </Text>
          {fields.data.fields.map((field) => {
            const expanded = open === field.name;
            return (
              <Box key={field.name}>
                <Group gap={2} wrap="nowrap">
                  <UnstyledButton
                    style={{ flex: 1, minWidth: 0 }}
                    aria-expanded={expanded}
                    onClick={() => setOpen(expanded ? null : field.name)}
                  >
                    <Group justify="space-between" wrap="nowrap" gap={4}>
                      <Group gap={4} wrap="nowrap" style={{ minWidth: 0 }}>
                        {expanded ? (
                          <IconChevronDown size={14} aria-hidden />
                        ) : (
                          <IconChevronRight size={14} aria-hidden />
                        )}
                        <Text size="sm" ff="monospace" truncate>
                          {field.name}
                        </Text>
                      </Group>
                      <Badge size="sm" variant="light" color="gray">
                        {field.count}
                      </Badge>
                    </Group>
                  </UnstyledButton>
                  {onAddColumn && !FIXED_COLUMNS.includes(field.name) && !columns.includes(field.name) && (
                    <Tooltip label={t('events.columnPicker.addFromSidebar', { field: field.name })}>
                      <ActionIcon
                        size="xs"
                        variant="subtle"
                        color="gray"
                        aria-label={t('events.columnPicker.addFromSidebar', { field: field.name })}
                        onClick={() => onAddColumn(field.name)}
                      >
                        <IconColumns size={12} />
                      </ActionIcon>
                    </Tooltip>
                  )}
                </Group>
                {expanded && (
                  <FieldValues orgId={orgId} scope={scope} field={field.name} onFilter={onFilter} />
                )}
              </Box>
            );
          })}
        </>
      )}
    </Stack>
  );
}

function FieldValues({
  orgId,
  scope,
  field,
  onFilter,
}: {
  orgId: string;
  scope: SearchScope;
  field: string;
  onFilter: AddFilter;
}) {
  const { t } = useTranslation();
  const values = useQuery(fieldValuesQuery(orgId, scope, field));
  if (values.isPending) return <Loader size="xs" ml="md" aria-label={t('events.fields.loadingValues')} />;
  if (values.isError)
    return (
      <Text size="xs" c="red" ml="md">
        {describeError(values.error, t)}
      </Text>
    );
  if (values.data.values.length === 0)
    return (
      <Text size="xs" c="dimmed" ml="md">
        {t('events.fields.noValues')}
      </Text>
    );
  return (
    <Stack gap={2} ml="md" my={4} role="list" aria-label={t('events.fields.valuesOf', { field })}>
      {values.data.values.map(({ value, count }) => (
        <Group key={value} gap={4} wrap="nowrap" role="listitem" justify="space-between">
          <Text size="xs" ff="monospace" truncate title={value} style={{ minWidth: 0 }}>
            {value === '' ? t('events.fields.emptyValue') : value}
          </Text>
          <Group gap={2} wrap="nowrap">
            <Text size="xs" c="dimmed">
              {count}
            </Text>
            <Tooltip label={t('events.fields.include', { field, value })}>
              <ActionIcon
                size="xs"
                variant="subtle"
                aria-label={t('events.fields.include', { field, value })}
                onClick={() => onFilter(field, value, false)}
              >
                <IconPlus size={12} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t('events.fields.exclude', { field, value })}>
              <ActionIcon
                size="xs"
                variant="subtle"
                color="red"
                aria-label={t('events.fields.exclude', { field, value })}
                onClick={() => onFilter(field, value, true)}
              >
                <IconMinus size={12} />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>
      ))}
    </Stack>
  );
}

/** The search's filters as removable chips, one per value; `NOT` marks excluded values. */
export function FilterChips({
  filters,
  onRemove,
  onClear,
}: {
  filters: readonly SearchFilter[];
  onRemove: (index: number, value: string) => void;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  if (filters.length === 0) return null;
  return (
    <Group gap="xs" aria-label={t('events.filters.title')} role="group">
      {filters.flatMap((filter, index) =>
        filter.values.map((value) => {
          const label = t(filter.exclude ? 'events.filters.excluded' : 'events.filters.included', {
            field: filter.field,
            value,
          });
          return (
            <Pill
              key={`${index}-${value}`}
              withRemoveButton
              onRemove={() => onRemove(index, value)}
              // Pill hides its remove button from assistive technology and the keyboard; here it is the way to
              // remove a filter.
              removeButtonProps={{
                'aria-label': t('events.filters.remove', { filter: label }),
                'aria-hidden': false,
                tabIndex: 0,
              }}
              bg={filter.exclude ? 'var(--mantine-color-red-light)' : 'var(--mantine-color-blue-light)'}
            >
              {label}
            </Pill>
          );
        }),
      )}
      <UnstyledButton onClick={onClear}>
        <Text size="xs" c="blue">
          {t('events.filters.clear')}
        </Text>
      </UnstyledButton>
    </Group>
  );
}
