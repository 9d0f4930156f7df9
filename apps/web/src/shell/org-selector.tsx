import { ActionIcon, Avatar, Group, Select, Stack, Tooltip } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconExternalLink } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useRouter, useRouterState } from '@tanstack/react-router';
import { adjacentOrgId, orgBadgeLetter } from '@vigil/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { orgContextKey } from '../lib/org-context';
import { withSearchParam } from '../lib/redirect';
import { permissionsQuery, useCurrentOrg, useUserOrgs } from '../lib/session';

/**
 * Switches the current organisation: its orgId goes into the query of the current address, and its
 * permissions, features and SKUs are loaded afresh (the route guard waits for the permissions).
 */
export function useSwitchOrg(): (orgId: string) => void {
  const queryClient = useQueryClient();
  const router = useRouter();
  return useCallback(
    (orgId: string) => {
      queryClient.removeQueries({ queryKey: permissionsQuery(orgId).queryKey });
      queryClient.removeQueries({ queryKey: orgContextKey(orgId) });
      void router.navigate({ href: withSearchParam(router.state.location.href, 'orgId', orgId) });
    },
    [queryClient, router],
  );
}

/** Moves to the previous or next of the user's organisations, wrapping round. */
export function useStepOrg(): (step: 1 | -1) => void {
  const orgs = useUserOrgs();
  const current = useCurrentOrg();
  const switchOrg = useSwitchOrg();
  return useCallback(
    (step: 1 | -1) => {
      const next = adjacentOrgId(
        orgs.map((org) => org.id),
        current?.id,
        step,
      );
      if (next && next !== current?.id) switchOrg(next);
    },
    [orgs, current, switchOrg],
  );
}

/**
 * The left bar's organisation selector (spec 1 section 2.5): a letter badge, a searchable list filtered
 * by name, previous and next arrows that cycle, and a link that opens the page for this organisation in
 * a new tab. Collapsed, the badge stands for the list and widens the bar.
 */
export function OrgSelector({ collapsed, onExpand }: { collapsed: boolean; onExpand: () => void }) {
  const { t } = useTranslation();
  const orgs = useUserOrgs();
  const current = useCurrentOrg();
  const switchOrg = useSwitchOrg();
  const stepOrg = useStepOrg();
  // While a switch is loading, the arrows would step from the organisation being left.
  const switching = useRouterState({ select: (state) => state.isLoading });
  const href = useLocation({ select: (location) => location.href });
  if (!current) return null;

  const single = orgs.length < 2;
  const badge = (
    <Avatar color="indigo" radius="sm" size={collapsed ? 'md' : 'sm'} aria-hidden>
      {orgBadgeLetter(current.name)}
    </Avatar>
  );
  const arrows = (
    <>
      <ActionIcon
        variant="subtle"
        color="gray"
        disabled={single || switching}
        aria-label={t('org.previous')}
        title={t('org.previous')}
        onClick={() => stepOrg(-1)}
      >
        <IconChevronLeft size={16} stroke={1.5} />
      </ActionIcon>
      <ActionIcon
        variant="subtle"
        color="gray"
        disabled={single || switching}
        aria-label={t('org.next')}
        title={t('org.next')}
        onClick={() => stepOrg(1)}
      >
        <IconChevronRight size={16} stroke={1.5} />
      </ActionIcon>
    </>
  );

  if (collapsed) {
    return (
      <Stack align="center" gap={4}>
        <Tooltip label={current.name} position="right">
          <ActionIcon
            variant="transparent"
            size="xl"
            aria-label={t('org.selector')}
            aria-description={current.name}
            onClick={onExpand}
          >
            {badge}
          </ActionIcon>
        </Tooltip>
        <Group gap={0} justify="center">
          {arrows}
        </Group>
      </Stack>
    );
  }

  return (
    <Stack gap={6}>
      <Select
        aria-label={t('org.selector')}
        leftSection={badge}
        data={orgs.map((org) => ({ value: org.id, label: org.name }))}
        value={current.id}
        onChange={(orgId) => {
          if (orgId && orgId !== current.id) switchOrg(orgId);
        }}
        searchable
        allowDeselect={false}
        selectFirstOptionOnChange
        nothingFoundMessage={t('org.nothingFound')}
        comboboxProps={{ width: 'target' }}
      />
      <Group gap={4} justify="space-between">
        <Group gap={0}>{arrows}</Group>
        <ActionIcon
          component="a"
          href={href}
          target="_blank"
          rel="noopener noreferrer"
          variant="subtle"
          color="gray"
          aria-label={t('org.newTab')}
          title={t('org.newTab')}
        >
          <IconExternalLink size={16} stroke={1.5} />
        </ActionIcon>
      </Group>
    </Stack>
  );
}
