import { Burger, Group, Text, UnstyledButton } from '@mantine/core';
import { IconBook, IconPlugConnected, IconShieldCheck, IconTargetArrow } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { cyberRiskReadinessTarget } from '@vigil/contracts';
import { useTranslation } from 'react-i18next';
import { useFeatures } from '../lib/org-context';
import { ColorSchemeToggle } from './color-scheme-toggle';
import { CsmContact } from './csm-contact';
import { InfoPanelButton } from './info-panel/info-panel';
import { ButtonLink } from './links';
import { UserMenu } from './user-menu';

function Brand() {
  const { t } = useTranslation();
  return (
    <Group gap={6} wrap="nowrap">
      <IconShieldCheck size={26} stroke={1.6} color="var(--mantine-primary-color-filled)" aria-hidden />
      <Text component="span" fw={700} size="lg">
        {t('app.name')}
      </Text>
    </Group>
  );
}

/** The header outside an organisation (signing in, choosing one): the name and the colour scheme. */
export function PublicHeader() {
  return (
    <Group h="100%" px="md" justify="space-between">
      <Brand />
      <Group gap="sm">
        <UserMenu inOrg={false} />
        <ColorSchemeToggle />
      </Group>
    </Group>
  );
}

/**
 * The header inside an organisation (spec 1 section 2.5): logo, knowledge base, connect, the cyber risk
 * readiness button, the info panel, the customer-success contact and the user menu.
 */
export function OrgHeader({ navOpened, onNavToggle }: { navOpened?: boolean; onNavToggle?: () => void }) {
  const { t } = useTranslation();
  const readinessTarget = cyberRiskReadinessTarget(useFeatures());
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap">
        {onNavToggle && (
          <Burger
            opened={navOpened ?? false}
            onClick={onNavToggle}
            hiddenFrom="sm"
            size="sm"
            aria-label={t('header.toggleNavigation')}
          />
        )}
        <UnstyledButton component={Link} to="/dashboards/default" aria-label={t('header.home')}>
          <Brand />
        </UnstyledButton>
      </Group>
      <Group gap={4} wrap="nowrap">
        <ButtonLink
          to="/knowledge-base"
          target="_blank"
          variant="subtle"
          color="gray"
          visibleFrom="md"
          leftSection={<IconBook size={18} stroke={1.5} />}
        >
          {t('header.knowledgeBase')}
        </ButtonLink>
        <ButtonLink
          to="/connect"
          variant="subtle"
          color="gray"
          visibleFrom="md"
          leftSection={<IconPlugConnected size={18} stroke={1.5} />}
        >
          {t('header.connect')}
        </ButtonLink>
        {readinessTarget && (
          <ButtonLink
            to={readinessTarget}
            variant="subtle"
            color="gray"
            leftSection={<IconTargetArrow size={18} stroke={1.5} />}
          >
            {t('header.cyberRiskReadiness')}
          </ButtonLink>
        )}
        <InfoPanelButton />
        <CsmContact />
        <UserMenu inOrg />
      </Group>
    </Group>
  );
}
