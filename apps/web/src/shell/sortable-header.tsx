import { Group, Table, UnstyledButton, type TableThProps } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconSelector } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export interface SortableHeaderProps extends Omit<TableThProps, 'onClick' | 'children'> {
  /** The column name, shown and read as the button's name unless `buttonLabel` is given. */
  children: ReactNode;
  /** Whether the list is sorted by this column. */
  sorted: boolean;
  /** The direction when sorted. */
  desc: boolean;
  onSort: () => void;
  /** A name for the sort button that says what a click does, for example "Sort by name, Z to A". */
  buttonLabel?: string;
  /** Controls shown beside the sort button, such as one removing the column. */
  actions?: ReactNode;
}

/**
 * A column header that sorts a server-side list: a button toggling the order, the state in aria-sort
 * (ascending, descending or none) and an icon showing it.
 */
export function SortableHeader({
  children,
  sorted,
  desc,
  onSort,
  buttonLabel,
  actions,
  ...props
}: SortableHeaderProps) {
  const Icon = !sorted ? IconSelector : desc ? IconChevronDown : IconChevronUp;
  return (
    <Table.Th aria-sort={sorted ? (desc ? 'descending' : 'ascending') : 'none'} {...props}>
      <Group gap={2} wrap="nowrap">
        <UnstyledButton onClick={onSort} fw={600} fz="sm" aria-label={buttonLabel}>
          <Group gap={4} wrap="nowrap">
            {children}
            <Icon size={14} stroke={1.5} aria-hidden />
          </Group>
        </UnstyledButton>
        {actions}
      </Group>
    </Table.Th>
  );
}
