import { Badge, Button, Menu } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  classifyThreatSubject,
  threatRatingSchema,
  type ThreatRating as Rating,
  type ThreatRatingValue,
} from '@vigil/contracts';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { threatRatingKey, threatRatingPath, threatRatingQuery } from './threat';

const RATING_COLORS: Record<ThreatRatingValue, string> = {
  HIGH: 'red',
  MEDIUM: 'orange',
  LOW: 'yellow',
  HARMLESS: 'green',
};

/** Spec 1 and 2: one month from now, as the client counts it. */
function oneMonthFromNow(): string {
  const until = new Date();
  until.setMonth(until.getMonth() + 1);
  return until.toISOString();
}

/** The rating of a subject, collected with the other lookups of the next 500 ms into one call. */
export function useThreatRating(subject: string, enabled = true) {
  const orgId = useCurrentOrgId() ?? '';
  return useQuery({ ...threatRatingQuery(orgId, subject), enabled: enabled && orgId !== '' });
}

function RatingBadge({ rating }: { rating: Rating }) {
  const { t } = useTranslation();
  if (!rating.rating) return null;
  return (
    <Badge color={RATING_COLORS[rating.rating]} variant="light">
      {t(`threat.rating.values.${rating.rating}`)}
      {rating.ignored && ` · ${t('threat.rating.ignored')}`}
    </Badge>
  );
}

/**
 * The threat rating of a host or a signature: a dropdown to change it with RATE_THREAT_EDIT, a
 * read-only badge with RATE_THREAT_VIEW, nothing without either.
 */
export function ThreatRating({ subject }: { subject: string }) {
  const canEdit = useHasPermission('RATE_THREAT_EDIT');
  const canView = useHasPermission('RATE_THREAT_VIEW');
  const rating = useThreatRating(subject, canEdit || canView);
  if (!rating.data) return null;
  if (!canEdit) return <RatingBadge rating={rating.data} />;
  return <RatingMenu subject={subject} rating={rating.data} />;
}

type Choice = ThreatRatingValue | 'IGNORE_MONTH' | 'IGNORE_FOREVER';
const CHOICES: Choice[] = ['HIGH', 'MEDIUM', 'LOW', 'IGNORE_MONTH', 'IGNORE_FOREVER'];

function RatingMenu({ subject, rating }: { subject: string; rating: Rating }) {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const queryClient = useQueryClient();
  const kind = classifyThreatSubject(subject).type === 'SIGNATURE' ? 'signature' : 'host';
  const save = (answer: Rating) => queryClient.setQueryData(threatRatingKey(orgId, subject), answer);
  const rate = useMutation({
    mutationFn: (choice: Choice) =>
      apiFetch(threatRatingPath(orgId), {
        method: 'PUT',
        body:
          choice === 'IGNORE_MONTH' || choice === 'IGNORE_FOREVER'
            ? {
                subject,
                rating: 'HARMLESS',
                ignore: { until: choice === 'IGNORE_MONTH' ? oneMonthFromNow() : null },
              }
            : { subject, rating: choice },
        schema: threatRatingSchema,
      }),
    onSuccess: save,
    meta: { errorKey: `threat.rating.rateFailed.${kind}` },
  });
  const clear = useMutation({
    mutationFn: () =>
      apiFetch(`${threatRatingPath(orgId)}?${new URLSearchParams({ subject }).toString()}`, {
        method: 'DELETE',
      }),
    onSuccess: () => save({ ...rating, rating: null, ratedAt: null, ignored: false, ignoreUntil: null }),
    meta: { errorKey: `threat.rating.clearFailed.${kind}` },
  });
  const label = rating.rating
    ? `${t(`threat.rating.values.${rating.rating}`)}${rating.ignored ? ` · ${t('threat.rating.ignored')}` : ''}`
    : t('threat.rating.unrated');
  return (
    <Menu position="bottom-start" withinPortal>
      <Menu.Target>
        <Button
          size="compact-xs"
          variant="light"
          color={rating.rating ? RATING_COLORS[rating.rating] : 'gray'}
          rightSection={<IconChevronDown size={12} />}
          loading={rate.isPending || clear.isPending}
          aria-label={t('threat.rating.menuLabel', { subject, rating: label })}
        >
          {label}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {CHOICES.map((choice) => (
          <Menu.Item key={choice} onClick={() => rate.mutate(choice)}>
            {t(`threat.rating.choices.${choice}`)}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item color="red" disabled={!rating.rating} onClick={() => clear.mutate()}>
          {t('threat.rating.choices.CLEAR')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
