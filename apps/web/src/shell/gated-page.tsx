import { Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { usePageTitle } from '../lib/page-title';
import { NotPermitted } from './not-permitted';

/** A page with its title, whose content shows only to users allowed to see it. */
export function GatedPage({
  title,
  allowed,
  maw,
  children,
}: {
  title: string;
  allowed: boolean;
  maw?: number;
  children: ReactNode;
}) {
  usePageTitle(title);
  return (
    <Stack gap="lg" maw={maw}>
      <Title order={1}>{title}</Title>
      {allowed ? children : <NotPermitted />}
    </Stack>
  );
}
