import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { currentUserSchema, type CurrentUser } from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, apiFetch } from '../../lib/api';
import { describeError, notifyMessage } from '../../lib/notify';
import { completeSignIn, endSession, type PendingSecondFactor } from '../../lib/session';

/** The server no longer holds the pending login: it timed out or was replaced. */
export function isSecondFactorExpired(err: unknown): boolean {
  return err instanceof ApiRequestError && err.error.key === 'SECOND_FACTOR_EXPIRED';
}

/** Ends the login once the second factor is accepted, or signs out when the pending login has expired. */
export function useSecondFactorOutcome(secondFactor: PendingSecondFactor) {
  const queryClient = useQueryClient();
  const router = useRouter();
  return {
    succeeded: (user: CurrentUser) => completeSignIn(queryClient, router, user, secondFactor.redirect),
    expired: () => endSession(queryClient, router, 'secondFactorExpired'),
  };
}

/**
 * Sends the one-time code of a pending login (POST /api/user/login/google2fa). A wrong code gives the
 * field its INVALID_TOTP message and lets the user try again.
 */
export function useTotpLogin(secondFactor: PendingSecondFactor, successMessageKey?: string) {
  const { t } = useTranslation();
  const outcome = useSecondFactorOutcome(secondFactor);
  const [error, setError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: (code: string) =>
      apiFetch('/api/user/login/google2fa', { method: 'POST', text: code, schema: currentUserSchema }),
    meta: { notifyError: false },
    onSuccess: async (user) => {
      if (successMessageKey) notifyMessage(successMessageKey);
      await outcome.succeeded(user);
    },
    onError: async (err) => {
      if (isSecondFactorExpired(err)) await outcome.expired();
      else setError(describeError(err, t));
    },
  });
  return {
    submit: (code: string) => {
      setError(null);
      mutation.mutate(code);
    },
    validating: mutation.isPending,
    error,
    clearError: () => setError(null),
  };
}
