import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  List,
  Modal,
  MultiSelect,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  TagsInput,
  Text,
} from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  libraryBulkEditResultSchema,
  libraryResyncResultSchema,
  libraryStatsSchema,
  TRIGGER_RESYNC_FIELDS,
  TRIGGER_SEVERITIES,
  type LibraryBulkEditResult,
  type LibraryStats,
  type TriggerResyncField,
  type TriggerSeverity,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { useOrgContext } from '../../lib/org-context';
import { notifyMessage } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission, useUserOrgs } from '../../lib/session';
import { GatedPage } from '../../shell/gated-page';
import { ButtonLink } from '../../shell/links';
import { LoadFailed, LoadingLine } from '../../shell/query-status';
import { expandId, libraryKey, libraryStatsQuery, libraryTriggerPath } from './library';

const BULK_STATES = ['ACTIVE', 'PAUSED', 'DISABLED'] as const;

/**
 * Library statistics (/triggers/{32-character id}/stats): which organisations hold a copy of a
 * library trigger, their states and alerts, the resync of copies and the bulk edit across
 * organisations. Provider staff in the provider organisation.
 */
export function LibraryStatsPage({ compact }: { compact: string }) {
  const { t } = useTranslation();
  const canView = useHasPermission('TRIGGER_VIEW');
  const staff = useHasPermission('TRAC_USER');
  const isProvider = useOrgContext()?.org.isProvider ?? false;
  const id = expandId(compact);
  return (
    <GatedPage title={t('libraryStats.title')} allowed={canView && staff && isProvider} maw={1400}>
      <ButtonLink
        to="/triggers/library"
        variant="subtle"
        leftSection={<IconArrowLeft size={16} />}
        w="fit-content"
      >
        {t('libraryStats.back')}
      </ButtonLink>
      {id ? <Stats id={id} /> : <Alert color="red">{t('TRIGGER_NOT_FOUND')}</Alert>}
    </GatedPage>
  );
}

function Stats({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const isAdmin = useHasPermission('TRAC_ADMIN');
  const canEdit = useHasPermission('TRIGGER_EDIT');
  const queryClient = useQueryClient();
  const stats = useQuery(libraryStatsQuery(orgId, id));
  const [selected, setSelected] = useState<string[]>([]);
  const [dialog, setDialog] = useState<'resync' | 'bulk' | null>(null);
  const refresh = (answer?: LibraryStats) => {
    if (answer) queryClient.setQueryData(libraryStatsQuery(orgId, id).queryKey, answer);
    return queryClient.invalidateQueries({ queryKey: libraryKey(orgId) });
  };
  const analyse = useMutation({
    mutationFn: () =>
      apiFetch(`${libraryTriggerPath(orgId, id)}/resync-analysis`, {
        method: 'POST',
        schema: libraryStatsSchema,
      }),
    onSuccess: async (answer) => {
      notifyMessage('libraryStats.analysed');
      await refresh(answer);
    },
    meta: { errorKey: 'libraryStats.analyseFailed' },
  });

  if (stats.isPending) return <LoadingLine label={t('libraryStats.loading')} />;
  if (stats.isError) {
    return (
      <LoadFailed
        title={t('libraryStats.loadFailed')}
        error={stats.error}
        onRetry={() => void stats.refetch()}
      />
    );
  }
  const { trigger, copies, counts, alertsLast30Days } = stats.data;
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const toggle = (triggerId: string, on: boolean) =>
    setSelected((current) => (on ? [...current, triggerId] : current.filter((entry) => entry !== triggerId)));
  const figures: [string, number][] = [
    [t('libraryStats.active'), counts.active],
    [t('libraryStats.paused'), counts.paused],
    [t('libraryStats.disabled'), counts.disabled],
    [t('libraryStats.alerts'), alertsLast30Days],
  ];

  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Text fw={600} size="lg">
          {trigger.name}
        </Text>
        <Text size="sm" c="dimmed">
          {t('libraryStats.summary', {
            group: trigger.groupName,
            type: t(`triggers.types.${trigger.type}`),
            version: trigger.version,
          })}
        </Text>
        <Text size="sm" c="dimmed">
          {trigger.resyncAnalysedAt
            ? t('libraryStats.analysedAt', { time: dateFormat.format(new Date(trigger.resyncAnalysedAt)) })
            : t('libraryStats.notAnalysed')}
        </Text>
      </Stack>
      <SimpleGrid cols={{ base: 2, md: 4 }}>
        {figures.map(([label, value]) => (
          <Card key={label} withBorder padding="sm" aria-label={label}>
            <Text size="xs" c="dimmed">
              {label}
            </Text>
            <Text fw={700} size="xl">
              {value}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
      <Group gap="sm">
        {isAdmin && canEdit && (
          <>
            <Button variant="default" loading={analyse.isPending} onClick={() => analyse.mutate()}>
              {t('libraryStats.analyse')}
            </Button>
            <Button disabled={selected.length === 0} onClick={() => setDialog('resync')}>
              {t('libraryStats.resync')}
            </Button>
          </>
        )}
        {canEdit && (
          <Button variant="light" onClick={() => setDialog('bulk')}>
            {t('libraryStats.bulkEdit')}
          </Button>
        )}
      </Group>
      {copies.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('libraryStats.noCopies')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={1000}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <Checkbox
                    aria-label={t('libraryStats.selectAll')}
                    checked={selected.length === copies.length}
                    indeterminate={selected.length > 0 && selected.length < copies.length}
                    onChange={(event) =>
                      setSelected(event.currentTarget.checked ? copies.map((copy) => copy.triggerId) : [])
                    }
                  />
                </Table.Th>
                <Table.Th>{t('libraryStats.organisation')}</Table.Th>
                <Table.Th>{t('triggers.state')}</Table.Th>
                <Table.Th>{t('triggers.severity')}</Table.Th>
                <Table.Th>{t('triggerLibrary.version')}</Table.Th>
                <Table.Th>{t('libraryStats.differences')}</Table.Th>
                <Table.Th>{t('libraryStats.alerts')}</Table.Th>
                <Table.Th>{t('triggerLibrary.managedBy')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {copies.map((copy) => (
                <Table.Tr key={copy.triggerId}>
                  <Table.Td>
                    <Checkbox
                      aria-label={t('libraryStats.selectNamed', { name: copy.orgName })}
                      checked={selected.includes(copy.triggerId)}
                      onChange={(event) => toggle(copy.triggerId, event.currentTarget.checked)}
                    />
                  </Table.Td>
                  <Table.Td>{copy.orgName}</Table.Td>
                  <Table.Td>{t(`triggers.states.${copy.state}`)}</Table.Td>
                  <Table.Td>{t(`triggers.severities.${copy.severity}`)}</Table.Td>
                  <Table.Td>
                    <Group gap="xs">
                      {copy.libraryVersion ?? '—'}
                      <Badge variant="light" color={copy.upToDate ? 'green' : 'yellow'}>
                        {copy.upToDate ? t('libraryStats.upToDate') : t('libraryStats.outOfDate')}
                      </Badge>
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    {copy.differences === null
                      ? t('libraryStats.notCalculated')
                      : copy.differences.length === 0
                        ? t('libraryStats.noDifferences')
                        : copy.differences.map((field) => t(`libraryStats.fields.${field}`)).join(', ')}
                  </Table.Td>
                  <Table.Td>{copy.alertsLast30Days}</Table.Td>
                  <Table.Td>{t(`triggerLibrary.managedByValues.${copy.managedBy}`)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {dialog === 'resync' && (
        <ResyncDialog
          orgId={orgId}
          id={id}
          triggerIds={selected}
          onClose={() => setDialog(null)}
          onDone={() => refresh()}
        />
      )}
      {dialog === 'bulk' && (
        <BulkEditDialog
          orgId={orgId}
          id={id}
          initialOrgIds={copies.filter((copy) => selected.includes(copy.triggerId)).map((copy) => copy.orgId)}
          onClose={() => setDialog(null)}
          onDone={() => refresh()}
        />
      )}
    </Stack>
  );
}

function ResyncDialog({
  orgId,
  id,
  triggerIds,
  onClose,
  onDone,
}: {
  orgId: string;
  id: string;
  triggerIds: string[];
  onClose: () => void;
  onDone: () => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const [fields, setFields] = useState<TriggerResyncField[]>([]);
  const resync = useMutation({
    mutationFn: () =>
      apiFetch(`${libraryTriggerPath(orgId, id)}/resync`, {
        method: 'POST',
        body: { triggerIds, fields },
        schema: libraryResyncResultSchema,
      }),
    onSuccess: async (answer) => {
      notifyMessage('libraryStats.resynced', 'green', { count: answer.synced.length });
      onClose();
      await onDone();
    },
    meta: { errorKey: 'libraryStats.resyncFailed' },
  });
  return (
    <Modal opened onClose={onClose} title={t('libraryStats.resyncTitle', { count: triggerIds.length })}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          // The server answers TRIGGER_RESYNC_NO_FIELDS_SELECTED when none is chosen.
          resync.mutate();
        }}
      >
        <Stack gap="sm">
          <Checkbox.Group
            label={t('libraryStats.fieldsToSync')}
            value={fields}
            onChange={(next) => setFields(next as TriggerResyncField[])}
          >
            <SimpleGrid cols={2} mt="xs">
              {TRIGGER_RESYNC_FIELDS.map((field) => (
                <Checkbox key={field} value={field} label={t(`libraryStats.fields.${field}`)} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={resync.isPending}>
              {t('libraryStats.resync')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function BulkEditDialog({
  orgId,
  id,
  initialOrgIds,
  onClose,
  onDone,
}: {
  orgId: string;
  id: string;
  initialOrgIds: string[];
  onClose: () => void;
  onDone: () => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const orgs = useUserOrgs().filter((org) => org.id !== orgId);
  const names = new Map(orgs.map((org) => [org.id, org.name]));
  const [orgIds, setOrgIds] = useState<string[]>(initialOrgIds);
  const [state, setState] = useState<(typeof BULK_STATES)[number] | null>(null);
  const [severity, setSeverity] = useState<TriggerSeverity | null>(null);
  const [replaceLabels, setReplaceLabels] = useState(false);
  const [labels, setLabels] = useState<string[]>([]);
  const [result, setResult] = useState<LibraryBulkEditResult | null>(null);
  const edit = useMutation({
    mutationFn: () =>
      apiFetch(`${libraryTriggerPath(orgId, id)}/bulk-edit`, {
        method: 'POST',
        body: {
          orgIds,
          changes: {
            ...(state && { state }),
            ...(severity && { severity }),
            ...(replaceLabels && { labels }),
          },
        },
        schema: libraryBulkEditResultSchema,
      }),
    onSuccess: async (answer) => {
      setResult(answer);
      await onDone();
    },
    meta: { errorKey: 'libraryStats.bulkEditFailed' },
  });
  const nameOf = (id: string) => names.get(id) ?? id;
  return (
    <Modal opened onClose={onClose} title={t('libraryStats.bulkEditTitle')}>
      {result ? (
        <Stack gap="sm">
          <Text size="sm">{t('libraryStats.changedCount', { count: result.changed.length })}</Text>
          {result.key && (
            <Alert color="yellow">
              {t(result.key, {
                count: result.notAuthorisedOrgIds.length,
                changed: result.changed.length,
                failed: result.failed.length,
              })}
            </Alert>
          )}
          {result.failed.length > 0 && (
            <List size="sm" aria-label={t('libraryStats.failed')}>
              {result.failed.map((entry) => (
                <List.Item key={entry.orgId}>
                  {nameOf(entry.orgId)}:{' '}
                  {t(entry.key, {
                    from: t(`triggers.states.${entry.params?.from ?? 'ACTIVE'}`),
                    to: t(`triggers.states.${entry.params?.to ?? 'ACTIVE'}`),
                  })}
                </List.Item>
              ))}
            </List>
          )}
          <Group justify="flex-end">
            <Button onClick={onClose}>{t('common.close')}</Button>
          </Group>
        </Stack>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            edit.mutate();
          }}
        >
          <Stack gap="sm">
            <MultiSelect
              label={t('triggerLibrary.organisations')}
              searchable
              data={orgs.map((org) => ({ value: org.id, label: org.name }))}
              value={orgIds}
              onChange={setOrgIds}
            />
            <Select
              label={t('triggers.state')}
              placeholder={t('libraryStats.unchanged')}
              clearable
              data={BULK_STATES.map((value) => ({ value, label: t(`triggers.states.${value}`) }))}
              value={state}
              onChange={(next) => setState(next as (typeof BULK_STATES)[number] | null)}
            />
            <Select
              label={t('triggers.severity')}
              placeholder={t('libraryStats.unchanged')}
              clearable
              data={TRIGGER_SEVERITIES.map((value) => ({ value, label: t(`triggers.severities.${value}`) }))}
              value={severity}
              onChange={(next) => setSeverity(next as TriggerSeverity | null)}
            />
            <Switch
              label={t('libraryStats.replaceLabels')}
              checked={replaceLabels}
              onChange={(event) => setReplaceLabels(event.currentTarget.checked)}
            />
            {replaceLabels && <TagsInput label={t('triggers.labels')} value={labels} onChange={setLabels} />}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={onClose}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={edit.isPending} disabled={orgIds.length === 0}>
                {t('libraryStats.apply')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
