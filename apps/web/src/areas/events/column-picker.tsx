import { Autocomplete, Button, Group, Popover, Stack } from '@mantine/core';
import { IconColumns } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { SEARCH_CSV_MAX_EXTRA_COLUMNS } from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { searchFieldsQuery, type SearchScope } from './queries';
import { columnProblem, FIXED_COLUMNS } from './search-params';

/**
 * Adds a field column to the results (and the CSV download): a field of the search's events, picked
 * or typed, checked against the column rules of spec 3 section 5 before it is added.
 */
export function ColumnPicker({
  orgId,
  scope,
  columns,
  onAdd,
}: {
  orgId: string;
  scope: SearchScope;
  columns: readonly string[];
  onAdd: (name: string) => void;
}) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const fields = useQuery({ ...searchFieldsQuery(orgId, scope), enabled: opened });
  const known = (fields.data?.fields ?? []).map((field) => field.name);
  const offered = known.filter((field) => !FIXED_COLUMNS.includes(field) && !columns.includes(field));

  const add = () => {
    const found = columnProblem(columns, name, known);
    if (found) return setProblem(found);
    onAdd(name.trim());
    setName('');
    setProblem(null);
    setOpened(false);
  };

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" trapFocus withinPortal>
      <Popover.Target>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconColumns size={14} />}
          onClick={() => setOpened((open) => !open)}
        >
          {t('events.columnPicker.button')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            add();
          }}
        >
          <Stack gap="xs" w={280}>
            <Autocomplete
              label={t('events.columnPicker.field')}
              data={offered}
              value={name}
              onChange={(value) => {
                setName(value);
                setProblem(null);
              }}
              error={problem && t(problem, { count: SEARCH_CSV_MAX_EXTRA_COLUMNS })}
              limit={50}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button type="submit" size="xs" loading={fields.isFetching && known.length === 0}>
                {t('events.columnPicker.add')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Popover.Dropdown>
    </Popover>
  );
}
