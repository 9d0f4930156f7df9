import { queryOptions } from '@tanstack/react-query';
import { samlEnabledResponseSchema } from '@vigil/contracts';
import { apiFetch } from '../../lib/api';

/** Whether single sign-on applies to an e-mail address, and where it signs in. */
export const samlEnabledQuery = (email: string) =>
  queryOptions({
    queryKey: ['auth', 'saml-enabled', email],
    queryFn: ({ signal }) =>
      apiFetch(`/api/user/saml-enabled?email=${encodeURIComponent(email)}`, {
        schema: samlEnabledResponseSchema,
        signal,
      }),
    retry: false,
  });
