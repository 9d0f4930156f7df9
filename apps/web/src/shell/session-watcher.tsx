import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { HEARTBEAT_INTERVAL_MS, SECOND_FACTOR_TIMEOUT_MS } from '@vigil/contracts';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch, setFailureListener, setUnauthorizedListener } from '../lib/api';
import { createClientErrorReporter } from '../lib/client-errors';
import { IDLE_SAMPLE_MS, idleStateAfter } from '../lib/idle';
import { usePreferences } from '../lib/preferences';
import { currentUserQuery, endSession, useCurrentUser, useSecondFactor } from '../lib/session';

const IDLE_WARNING_ID = 'idle-warning';

/** What counts as the user being there. */
const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;

/**
 * The session's background work (spec 1 sections 4 and 7): sign-out on a 401, reports of failed calls,
 * the heartbeat, the inactivity warning and logout, and the time limit of a pending second factor.
 * Renders nothing.
 */
export function SessionWatcher() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const router = useRouter();
  const signedIn = useCurrentUser() !== null;
  const secondFactorStartedAt = useSecondFactor()?.startedAt;
  const { inactivityTimeout } = usePreferences();

  useEffect(() => {
    setUnauthorizedListener(() => {
      // Only a session the app holds can end; a 401 while signed out needs nothing.
      if (queryClient.getQueryData(currentUserQuery.queryKey)) {
        void endSession(queryClient, router, 'sessionEnded');
      }
    });
    return () => setUnauthorizedListener(null);
  }, [queryClient, router]);

  useEffect(() => {
    // The server takes reports from signed-in users only.
    if (!signedIn) return;
    setFailureListener(createClientErrorReporter());
    return () => setFailureListener(null);
  }, [signedIn]);

  useEffect(() => {
    if (!signedIn) return;
    const timer = setInterval(() => {
      apiFetch('/api/heartbeat', { method: 'POST' }).catch(() => {
        // Spec 1 section 8: a failed heartbeat needs no action; a 401 has already signed the user out.
      });
    }, HEARTBEAT_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [signedIn]);

  useEffect(() => {
    if (!signedIn || !inactivityTimeout) return;
    let lastActivity = Date.now();
    let warning = false;
    const onActivity = () => {
      lastActivity = Date.now();
      if (warning) {
        warning = false;
        notifications.hide(IDLE_WARNING_ID);
      }
    };
    for (const type of ACTIVITY_EVENTS) {
      window.addEventListener(type, onActivity, { capture: true, passive: true });
    }
    const timer = setInterval(() => {
      const state = idleStateAfter(Date.now() - lastActivity);
      if (state.kind === 'expired') {
        notifications.hide(IDLE_WARNING_ID);
        void endSession(queryClient, router, 'idle');
      } else if (state.kind === 'warning') {
        const notification = {
          id: IDLE_WARNING_ID,
          color: 'yellow',
          title: t('session.idleWarningTitle'),
          message: t('session.idleWarning', { count: state.minutesLeft }),
          autoClose: false as const,
        };
        if (warning) notifications.update(notification);
        else notifications.show(notification);
        warning = true;
      }
    }, IDLE_SAMPLE_MS);
    return () => {
      for (const type of ACTIVITY_EVENTS) window.removeEventListener(type, onActivity, { capture: true });
      clearInterval(timer);
      notifications.hide(IDLE_WARNING_ID);
    };
  }, [signedIn, inactivityTimeout, queryClient, router, t]);

  useEffect(() => {
    if (secondFactorStartedAt === undefined) return;
    const remaining = secondFactorStartedAt + SECOND_FACTOR_TIMEOUT_MS - Date.now();
    const timer = setTimeout(() => void endSession(queryClient, router, 'secondFactorExpired'), remaining);
    return () => clearTimeout(timer);
  }, [secondFactorStartedAt, queryClient, router]);

  return null;
}
