import { useEffect } from 'react';
import { detectAdBlocker } from '../lib/adblock';
import { notifyMessage } from '../lib/notify';
import { useFeature } from '../lib/org-context';
import { usePreferencesQuery, useUpdatePreferences } from '../lib/preferences';

/** Spec 1 section 2.5: tells the user once about an ad blocker (feature adblockDetector). Renders nothing. */
export function AdBlockNotice() {
  const enabled = useFeature('adblockDetector');
  const preferences = usePreferencesQuery();
  const updatePreferences = useUpdatePreferences();
  const notified = preferences.data?.adBlockNotified ?? true;

  useEffect(() => {
    if (!enabled || notified) return;
    let cancelled = false;
    void detectAdBlocker().then((blocked) => {
      if (cancelled || !blocked) return;
      notifyMessage('AD_BLOCK_NOTIFICATION', 'blue');
      updatePreferences({ adBlockNotified: true });
    });
    return () => {
      cancelled = true;
    };
  }, [enabled, notified, updatePreferences]);

  return null;
}
