import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiRequestError } from './api';
import { notifyError } from './notify';
import { SESSION_QUERY_KEY } from './session';

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: {
      /** Catalogue key of the action's own failure message, used when the server's key is unknown. */
      errorKey?: string;
      /** False when the caller shows the failure itself, for example beside a form field. */
      notifyError?: boolean;
    };
    queryMeta: {
      /**
       * Catalogue key of the load's own failure message (such as ERROR_LOADING_SOFTWARE): with it, a
       * failed load is shown as a notification, once its retries are over. Without it the page shows
       * the failure itself.
       */
      errorKey?: string;
    };
  }
}

const MAX_QUERY_RETRIES = 3;

/** A 4xx answer will not change on a second try; network and server failures may. */
export function shouldRetryQuery(failureCount: number, error: Error): boolean {
  if (error instanceof ApiRequestError && error.status >= 400 && error.status < 500) return false;
  return failureCount < MAX_QUERY_RETRIES;
}

export function createQueryClient(): QueryClient {
  const client = new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (query.meta?.errorKey) notifyError(error, query.meta.errorKey);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _onMutateResult, mutation) => {
        if (mutation.meta?.notifyError === false) return;
        notifyError(error, mutation.meta?.errorKey);
      },
    }),
    defaultOptions: {
      queries: { retry: shouldRetryQuery },
    },
  });
  // Session state is read by route guards without a watching component; it lasts until sign-out.
  client.setQueryDefaults(SESSION_QUERY_KEY, { staleTime: Infinity, gcTime: Infinity });
  return client;
}
