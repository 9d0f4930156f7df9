import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { createLazyRoute, getRouteApi } from '@tanstack/react-router';
import { knowledgeBaseLoginResponseSchema } from '@vigil/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { AuthCard } from './auth-card';

const routeApi = getRouteApi('/knowledge-base');

export const Route = createLazyRoute('/knowledge-base')({
  component: KnowledgeBasePage,
});

/** Spec 1 section 9: the spinner stops this long after the knowledge base has been asked to open. */
const SPINNER_MS = 4_000;

/** Only web addresses are opened; the answer comes from the server, but a javascript: URL must never run. */
function isWebAddress(address: string): boolean {
  try {
    const { protocol } = new URL(address);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

function KnowledgeBasePage() {
  const { t } = useTranslation();
  const { r } = routeApi.useSearch();
  const login = useQuery({
    queryKey: ['auth', 'knowledge-base-login', r ?? null],
    queryFn: async ({ signal }) => {
      const query = r === undefined ? '' : `?r=${encodeURIComponent(r)}`;
      const { loginUrl } = await apiFetch(`/api/knowledge-base-login${query}`, {
        schema: knowledgeBaseLoginResponseSchema,
        signal,
      });
      if (!isWebAddress(loginUrl)) throw new Error('The knowledge-base address is not a web address');
      return loginUrl;
    },
    // The address carries a short-lived sign-in token: asked for once per visit, never kept.
    gcTime: 0,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    retry: false,
  });
  const loginUrl = login.data;
  const [spinning, setSpinning] = useState(true);

  useEffect(() => {
    if (!loginUrl) return;
    window.location.assign(loginUrl);
    const timer = setTimeout(() => setSpinning(false), SPINNER_MS);
    return () => clearTimeout(timer);
  }, [loginUrl]);

  return (
    <AuthCard title={t('auth.knowledgeBase.title')}>
      {login.isError ? (
        <Alert color="red">
          <Stack gap="sm" align="flex-start">
            {t('ERROR_LOGGING_IN_TO_KNOWLEDGE_BASE')}
            <Button
              variant="light"
              color="red"
              onClick={() => {
                setSpinning(true);
                void login.refetch();
              }}
            >
              {t('errors.retry')}
            </Button>
          </Stack>
        </Alert>
      ) : (
        <Group gap="sm" wrap="nowrap" role="status">
          {spinning && <Loader size="sm" />}
          <Text style={{ overflowWrap: 'anywhere' }}>
            {loginUrl
              ? t('auth.knowledgeBase.redirecting', { url: loginUrl })
              : t('auth.knowledgeBase.preparing')}
          </Text>
        </Group>
      )}
    </AuthCard>
  );
}
