import { Button, Divider, Drawer, Group, Loader, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  formatOrgClock,
  infoPanelButtonVisible,
  ORG_CLOCK_TICK_MS,
  orgInfoMetadataSchema,
  orgTitleChange,
  orgTitleProblem,
  SIDE_PANEL_CLOSE_MS,
  SIDE_PANEL_WIDTH,
  THREAT_LEVEL_LABELS,
  THREAT_LEVELS,
  threatLevelChange,
  type OrgInfoMetadata,
  type ThreatLevel,
} from '@vigil/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { useNavContext, useOrgContext } from '../../lib/org-context';
import { useCurrentOrgId } from '../../lib/session';
import { useSidePanel } from '../../lib/side-panel';
import { InfoNotes } from './info-notes';
import { infoPath, orgMetadataQuery, useInfoPanelAllowed, useOrgMetadataQuery } from './queries';
import { LoadFailed } from '../query-status';

const PANEL_ID = 'info';

const THREAT_LEVEL_COLORS: Record<ThreatLevel, string> = {
  ONE: 'red',
  TWO: 'orange',
  THREE: 'yellow',
  FOUR: 'green',
};

/** The header button that opens the panel and shows the current threat level (TRAC_USER, feature infoPanel). */
export function InfoPanelButton() {
  const { t } = useTranslation();
  const visible = infoPanelButtonVisible(useNavContext());
  const metadata = useOrgMetadataQuery();
  const panel = useSidePanel(PANEL_ID);
  if (!visible) return null;
  const level = metadata.data?.threatLevel;
  return (
    <Button
      variant="light"
      color={level ? THREAT_LEVEL_COLORS[level] : 'gray'}
      leftSection={<IconInfoCircle size={18} stroke={1.5} />}
      aria-label={t('header.infoPanel')}
      title={level ? t('header.threatLevel', { level: THREAT_LEVEL_LABELS[level] }) : t('header.infoPanel')}
      aria-expanded={panel.opened}
      onClick={panel.opened ? panel.close : panel.open}
    >
      {level ? THREAT_LEVEL_LABELS[level] : t('header.infoPanelShort')}
    </Button>
  );
}

/** The info side panel (spec 1 section 2.9): 30vw on the right, closing with a 300 ms animation. */
export function InfoPanel() {
  const { t } = useTranslation();
  const allowed = useInfoPanelAllowed();
  const panel = useSidePanel(PANEL_ID);
  const queryClient = useQueryClient();
  const orgId = useCurrentOrgId();
  return (
    <Drawer
      opened={panel.opened && allowed}
      onClose={panel.close}
      position="right"
      size={SIDE_PANEL_WIDTH}
      styles={{ content: { minWidth: 'min(100vw, 24rem)' } }}
      title={t('infoPanel.title')}
      transitionProps={{ duration: SIDE_PANEL_CLOSE_MS }}
      // The header's threat level follows what the panel saved.
      onExitTransitionEnd={() => {
        if (orgId) void queryClient.invalidateQueries({ queryKey: orgMetadataQuery(orgId).queryKey });
      }}
    >
      <Stack gap="lg">
        <OrgInfo />
        <OrgClock />
        <Divider />
        <InfoNotes />
      </Stack>
    </Drawer>
  );
}

function OrgInfo() {
  const { t } = useTranslation();
  const metadata = useOrgMetadataQuery();
  if (metadata.isPending) return <Loader size="sm" aria-label={t('app.loading')} />;
  if (metadata.isError) {
    return (
      <LoadFailed
        title={t('ERROR_LOADING_ORG_METADATA')}
        error={metadata.error}
        onRetry={() => void metadata.refetch()}
      />
    );
  }
  // Keyed by the saved values, so that the form starts again from whatever the server now holds.
  return <OrgInfoForm key={`${metadata.data.title}|${metadata.data.threatLevel}`} metadata={metadata.data} />;
}

function OrgInfoForm({ metadata }: { metadata: OrgInfoMetadata }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(metadata.title);
  const [touched, setTouched] = useState(false);
  const save = useMutation({
    mutationFn: (input: Pick<OrgInfoMetadata, 'title' | 'threatLevel'>) =>
      apiFetch(`${infoPath(metadata.orgId)}/metadata`, {
        method: 'PUT',
        body: input,
        schema: orgInfoMetadataSchema,
      }),
    onSuccess: (saved) => queryClient.setQueryData(orgMetadataQuery(metadata.orgId).queryKey, saved),
    meta: { errorKey: 'ERROR_EDITING_ORG_METADATA' },
  });

  const problem = orgTitleProblem(draft);
  const change = orgTitleChange(metadata, draft);
  const error =
    touched && problem === 'required'
      ? t('ERROR_REQUIRED')
      : problem === 'tooLong'
        ? t('infoPanel.titleTooLong')
        : undefined;

  return (
    <Stack gap="sm">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (change) save.mutate(change);
        }}
      >
        <Group align="flex-start" gap="xs" wrap="nowrap">
          <TextInput
            label={t('infoPanel.orgTitle')}
            value={draft}
            onChange={(event) => {
              setDraft(event.currentTarget.value);
              setTouched(true);
            }}
            error={error}
            required
            style={{ flex: 1 }}
          />
          <Button type="submit" mt={25} disabled={change === null} loading={save.isPending}>
            {t('infoPanel.save')}
          </Button>
        </Group>
      </form>
      <Select
        label={t('infoPanel.threatLevel')}
        data={THREAT_LEVELS.map((level) => ({ value: level, label: THREAT_LEVEL_LABELS[level] }))}
        value={metadata.threatLevel}
        allowDeselect={false}
        disabled={save.isPending}
        onChange={(value) => {
          const levelChange = value ? threatLevelChange(metadata, value as ThreatLevel) : null;
          if (levelChange) save.mutate(levelChange);
        }}
      />
    </Stack>
  );
}

/** The time in the organisation's e-mail timezone, moving on at each minute. */
function OrgClock() {
  const { t } = useTranslation();
  const timeZone = useOrgContext()?.settings.emailTimezone;
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    let interval: ReturnType<typeof setInterval> | undefined;
    const tick = () => setNow(new Date());
    // Aligned to the turn of the minute, so the clock never lags by most of one.
    const timeout = setTimeout(
      () => {
        tick();
        interval = setInterval(tick, ORG_CLOCK_TICK_MS);
      },
      ORG_CLOCK_TICK_MS - (Date.now() % ORG_CLOCK_TICK_MS),
    );
    return () => {
      clearTimeout(timeout);
      clearInterval(interval);
    };
  }, []);
  if (!timeZone) return null;
  return (
    <div>
      <Text size="sm" c="dimmed">
        {t('infoPanel.clock', { zone: t(`timezones.${timeZone}`) })}
      </Text>
      <Text component="time" dateTime={now.toISOString()} fw={500}>
        {formatOrgClock(now, timeZone)}
      </Text>
    </div>
  );
}
