import { Alert, Anchor, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { bannerSchema, type Banner } from '@vigil/contracts';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { apiFetch } from '../lib/api';
import { notifyError } from '../lib/notify';

const BANNERS_STALE_MS = 5 * 60_000;

/** GET /api/org/all/banners: active banners the user has not dismissed, oldest first. */
export const bannersQuery = {
  queryKey: ['banners'] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    apiFetch('/api/org/all/banners', { schema: z.array(bannerSchema), signal }),
  staleTime: BANNERS_STALE_MS,
};

const BANNER_COLORS: Record<Banner['type'], string> = {
  success: 'green',
  info: 'blue',
  warning: 'yellow',
  alert: 'red',
};

/**
 * The info banner above the page (spec 1 section 2.5): one at a time; dismissing it (remembered per
 * user on the server) brings up the next.
 */
export function InfoBanner() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const banners = useQuery({ ...bannersQuery, retry: false });
  const dismiss = useMutation({
    mutationFn: (id: string) =>
      apiFetch(`/api/banners/${encodeURIComponent(id)}/dismiss`, { method: 'POST' }),
    onMutate: (id) => {
      queryClient.setQueryData<Banner[]>(bannersQuery.queryKey, (list) =>
        list?.filter((banner) => banner.id !== id),
      );
    },
    onError: () => void queryClient.invalidateQueries({ queryKey: bannersQuery.queryKey }),
  });

  const { isError, error } = banners;
  useEffect(() => {
    if (isError) notifyError(error, 'ERROR_LOADING_INFO_BANNERS');
  }, [isError, error]);

  const banner = banners.data?.[0];
  if (!banner) return null;
  return (
    <Alert
      color={BANNER_COLORS[banner.type]}
      title={banner.title}
      withCloseButton
      closeButtonLabel={t('banner.dismiss')}
      onClose={() => dismiss.mutate(banner.id)}
      mb="md"
    >
      <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
        {banner.message}
      </Text>
      {banner.hyperlink && (
        <Anchor href={banner.hyperlink} target="_blank" rel="noopener noreferrer" size="sm">
          {t('banner.learnMore')}
        </Anchor>
      )}
    </Alert>
  );
}
