import { Group, Pagination, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface ListPagerProps {
  /** 1-based. */
  page: number;
  pageSize: number;
  total: number;
  onChange: (page: number) => void;
  /** Shows "x - y of z" beside the pages (spec 1 section 9); on unless a list has its own count. */
  withRange?: boolean;
}

/** The first and last item numbers of a page, 1-based; both 0 for an empty list. */
export function pageRange(page: number, pageSize: number, total: number): { first: number; last: number } {
  if (total === 0) return { first: 0, last: 0 };
  return { first: (page - 1) * pageSize + 1, last: Math.min(total, page * pageSize) };
}

/** The footer of a paged list: the range shown, "x - y of z", and the page buttons. */
export function ListPager({ page, pageSize, total, onChange, withRange = true }: ListPagerProps) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const { first, last } = pageRange(page, pageSize, total);
  return (
    <Group justify={withRange ? 'space-between' : 'flex-start'}>
      {withRange && (
        <Text size="sm" c="dimmed">
          {t('shell.list.range', { first, last, total })}
        </Text>
      )}
      <Pagination
        total={pages}
        value={page}
        onChange={onChange}
        hideWithOnePage
        getControlProps={(control) => ({ 'aria-label': t(`shell.list.pagination.${control}`) })}
      />
    </Group>
  );
}
