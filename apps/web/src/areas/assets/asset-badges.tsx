import { Badge, Group, Text, type BadgeProps } from '@mantine/core';
import { createLink } from '@tanstack/react-router';
import { IMPORTANCE_DOTS, type AssetImportance } from '@vigil/contracts';
import type { ComponentPropsWithRef } from 'react';
import { useTranslation } from 'react-i18next';

type BadgeAnchorProps = BadgeProps & Omit<ComponentPropsWithRef<'a'>, keyof BadgeProps>;

function BadgeAnchor(props: BadgeAnchorProps) {
  return <Badge component="a" style={{ cursor: 'pointer' }} {...props} />;
}

/** Mantine's Badge as a router link. */
const BadgeLink = createLink(BadgeAnchor);

const DOT_COUNT = Math.max(...Object.values(IMPORTANCE_DOTS));

/**
 * Importance as filled dots (spec 2 section 9: 3, 2 or 1 for high, medium, low; none shows none), read
 * out as "Importance: high".
 */
export function ImportanceDots({ importance, size = 10 }: { importance: AssetImportance; size?: number }) {
  const { t } = useTranslation();
  const filled = IMPORTANCE_DOTS[importance];
  const label = t('assets.importanceLabel', { importance: t(`assets.importance.${importance}`) });
  return (
    <Group gap={3} wrap="nowrap" role="img" aria-label={label} title={label} data-dots={filled}>
      {Array.from({ length: DOT_COUNT }, (_, index) => (
        <span
          key={index}
          aria-hidden
          style={{
            display: 'inline-block',
            width: size,
            height: size,
            borderRadius: '50%',
            border: '1px solid var(--mantine-color-orange-filled)',
            background: index < filled ? 'var(--mantine-color-orange-filled)' : 'transparent',
          }}
        />
      ))}
    </Group>
  );
}

/** Tracked (kept by people) or untracked (discovered from events). */
export function TrackedBadge({ tracked }: { tracked: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={tracked ? 'blue' : 'gray'}>
      {t(tracked ? 'assets.tracked' : 'assets.untracked')}
    </Badge>
  );
}

/** Labels as badges, each a link to the assets carrying it (`/assets?labels=X`). */
export function LabelBadges({ labels }: { labels: string[] }) {
  const { t } = useTranslation();
  if (labels.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  }
  return (
    <Group gap={4}>
      {labels.map((label) => (
        <BadgeLink
          key={label}
          to="/assets"
          search={{ labels: label }}
          variant="light"
          color="teal"
          tt="none"
          title={t('assets.list.showLabel', { label })}
          // In a clickable list row the link opens the label's list, not the row's dialog.
          onClick={(event) => event.stopPropagation()}
        >
          {label}
        </BadgeLink>
      ))}
    </Group>
  );
}
