import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  List,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  incidentRiskSchema,
  riskIncidentSchema,
  type ControlTrigger,
  type IncidentRisk,
  type RiskDetail,
  type TicketDetail,
} from '@vigil/contracts';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { apiFetch, orgPath } from '../../lib/api';
import { useHasPermission } from '../../lib/session';
import { AnchorLink } from '../../shell/links';
import { QueryStates } from '../../shell/query-status';
import { TicketLink, TicketStateBadge } from '../tickets/ticket-badges';
import { ticketsKey, ticketsQuery } from '../tickets/tickets';
import { riskKey, riskPath, risksQuery } from './api';
import { useRiskModules } from './module-badges';

/** The register's risks linked to an incident (GET /risks/incident/:ref). */
export const incidentRisksPath = (orgId: string, ref: string) =>
  `${orgPath(orgId)}/risks/incident/${encodeURIComponent(ref)}`;

const incidentRisksQuery = (orgId: string, slug: string, version: number) => ({
  queryKey: [...riskKey(orgId), 'incident', slug.toUpperCase(), version] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    apiFetch(incidentRisksPath(orgId, slug), { schema: z.array(incidentRiskSchema), signal }),
});

/** A confirmation before a link is removed; nothing changes until confirmed. */
function ConfirmUnlink({
  title,
  message,
  pending,
  onConfirm,
  onClose,
}: {
  title: string;
  message: string;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened onClose={onClose} title={title} centered>
      <Stack gap="sm">
        <Text>{message}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button color="red" loading={pending} onClick={onConfirm}>
            {t('risk.links.unlink')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** A searchable picker with a Link button; the options come from the caller's query. */
function LinkPicker({
  label,
  placeholder,
  options,
  loading,
  failed,
  pending,
  onSearch,
  onLink,
}: {
  label: string;
  placeholder: string;
  options: { value: string; label: string }[];
  loading: boolean;
  failed: boolean;
  pending: boolean;
  onSearch: (text: string) => void;
  onLink: (value: string) => void;
}) {
  const { t } = useTranslation();
  const [value, setValue] = useState<string | null>(null);
  return (
    <Group align="flex-end" gap="xs">
      <Select
        label={label}
        placeholder={placeholder}
        data={options}
        value={value}
        onChange={setValue}
        onSearchChange={onSearch}
        searchable
        clearable
        nothingFoundMessage={
          loading
            ? t('risk.links.searching')
            : failed
              ? t('risk.links.searchFailed')
              : t('risk.links.noMatch')
        }
        error={failed ? t('risk.links.searchFailed') : undefined}
        w={360}
      />
      <Button
        variant="default"
        aria-label={label}
        disabled={!value}
        loading={pending}
        onClick={() => {
          if (value) onLink(value);
          setValue(null);
        }}
      >
        {t('risk.links.link')}
      </Button>
    </Group>
  );
}

/** The incidents that realised a register risk: listed, linked from a search, unlinked after a confirmation. */
export function RiskIncidentsCard({ orgId, risk }: { orgId: string; risk: RiskDetail }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const canEdit = useHasPermission('RISK_EDIT');
  const canSearch = useHasPermission('INCIDENT_VIEW');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [unlinking, setUnlinking] = useState<RiskDetail['incidents'][number] | null>(null);
  const incidents = useQuery({
    ...ticketsQuery(orgId, 'incident', {
      filter: 'all',
      q: debounced || undefined,
      sortBy: 'number',
      desc: true,
      pageSize: 20,
      pageNumber: 1,
    }),
    enabled: canEdit && canSearch,
  });
  const save = useMutation({
    mutationFn: (slugs: string[]) =>
      apiFetch(`${riskPath(orgId, risk.id)}/incidents`, {
        method: 'PUT',
        body: { slugs },
        schema: z.array(riskIncidentSchema),
      }),
    onSuccess: async () => {
      setUnlinking(null);
      notifications.show({ color: 'green', message: t('risk.links.saved') });
      await queryClient.invalidateQueries({ queryKey: riskKey(orgId) });
      await queryClient.invalidateQueries({ queryKey: ticketsKey(orgId) });
    },
    meta: { errorKey: 'risk.links.saveFailed' },
  });
  const linked = risk.incidents.map((incident) => incident.slug);
  const options = (incidents.data?.items ?? [])
    .filter((incident) => !linked.includes(incident.slug))
    .map((incident) => ({ value: incident.slug, label: `${incident.slug} ${incident.title}` }));
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Title order={4}>{t('risk.incidents')}</Title>
        {risk.incidents.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('risk.noIncidents')}
          </Text>
        ) : (
          <Table aria-label={t('risk.incidents')}>
            <Table.Tbody>
              {risk.incidents.map((incident) => (
                <Table.Tr key={incident.id}>
                  <Table.Td w={110}>
                    <TicketLink ticket={{ kind: 'incident', slug: incident.slug }} />
                  </Table.Td>
                  <Table.Td>{incident.title}</Table.Td>
                  <Table.Td w={130}>
                    <TicketStateBadge state={incident.state as TicketDetail['state']} />
                  </Table.Td>
                  {canEdit && (
                    <Table.Td w={90}>
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        color="red"
                        aria-label={t('risk.links.unlinkNamed', { name: incident.slug })}
                        onClick={() => setUnlinking(incident)}
                      >
                        {t('risk.links.unlink')}
                      </Button>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {canEdit && canSearch && (
          <LinkPicker
            label={t('risk.links.linkIncident')}
            placeholder={t('risk.links.incidentPlaceholder')}
            options={options}
            loading={incidents.isFetching}
            failed={incidents.isError}
            pending={save.isPending && !unlinking}
            onSearch={setSearch}
            onLink={(slug) => save.mutate([...linked, slug])}
          />
        )}
      </Stack>
      {unlinking && (
        <ConfirmUnlink
          title={t('risk.links.unlinkIncidentTitle')}
          message={t('risk.links.unlinkIncidentConfirm', { slug: unlinking.slug, risk: risk.publicId })}
          pending={save.isPending}
          onClose={() => setUnlinking(null)}
          onConfirm={() => save.mutate(linked.filter((slug) => slug !== unlinking.slug))}
        />
      )}
    </Card>
  );
}

function TriggerLink({ trigger }: { trigger: ControlTrigger }) {
  return trigger.domain === 'fraud' ? (
    <AnchorLink to="/fraud/triggers" size="sm">
      {trigger.name}
    </AnchorLink>
  ) : (
    <AnchorLink to="/triggers" size="sm">
      {trigger.name}
    </AnchorLink>
  );
}

/** For each control linked to the risk, the triggers related to it: running or not, and when they last fired. */
export function ControlTriggersCard({ risk }: { risk: RiskDetail }) {
  const { t, i18n } = useTranslation();
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Title order={4}>{t('risk.links.triggers')}</Title>
        {risk.controls.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('risk.links.noControls')}
          </Text>
        ) : (
          risk.controls.map((control) => (
            <Stack key={control.id} gap={4}>
              <Text fw={500} size="sm">
                {control.publicId} {control.name}
              </Text>
              {control.triggers.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t('risk.links.noTriggers')}
                </Text>
              ) : (
                <Table aria-label={`${control.publicId} ${control.name}`}>
                  <Table.Tbody>
                    {control.triggers.map((trigger) => (
                      <Table.Tr key={trigger.id}>
                        <Table.Td>
                          <TriggerLink trigger={trigger} />
                        </Table.Td>
                        <Table.Td w={130}>
                          <Badge color={trigger.active ? 'green' : 'gray'} variant="light">
                            {t(trigger.active ? 'risk.links.active' : 'risk.links.inactive')}
                          </Badge>
                        </Table.Td>
                        <Table.Td w={240}>
                          <Text size="sm">
                            {trigger.lastFiredOn
                              ? t('risk.links.lastFired', {
                                  at: dateFormat.format(new Date(trigger.lastFiredOn)),
                                })
                              : t('risk.links.neverFired')}
                          </Text>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </Stack>
          ))
        )}
      </Stack>
    </Card>
  );
}

/** The notice on a risk whose scores are to revisit, naming the incidents that asked for it. */
export function RevisitNotice({ risk }: { risk: RiskDetail }) {
  const { t, i18n } = useTranslation();
  if (!risk.revisitScores) return null;
  return (
    <Alert color="orange" title={t('risk.links.revisitTitle')}>
      {t('risk.links.revisitNotice', {
        since: new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(
          new Date(risk.revisitScores.since),
        ),
        incidents: risk.revisitScores.incidents.map((incident) => incident.slug).join(', '),
      })}
    </Alert>
  );
}

function RiskScoreLink({ risk, children }: { risk: IncidentRisk; children: ReactNode }) {
  return (
    <AnchorLink to="/risk/risks/register/$ref" params={{ ref: risk.publicId }} hash="risk-scores" size="sm">
      {children}
    </AnchorLink>
  );
}

/**
 * The Risks panel of an incident: the register risks it realised (RISK_VIEW and a risk product), linked
 * and unlinked with the risk edit permission. Once the incident is closed with a root cause, it lists
 * the risks whose scores to revisit with a link to each one's scoring.
 */
export function IncidentRisksPanel({ orgId, ticket }: { orgId: string; ticket: TicketDetail }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const held = useRiskModules();
  const canView = useHasPermission('RISK_VIEW') && held.length > 0;
  const canEdit = useHasPermission('RISK_EDIT') && canView;
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [unlinking, setUnlinking] = useState<IncidentRisk | null>(null);
  const risks = useQuery({ ...incidentRisksQuery(orgId, ticket.slug, ticket.version), enabled: canView });
  const candidates = useQuery({
    ...risksQuery(orgId, false, {
      modules: held,
      q: debounced,
      state: 'ALL',
      exceptions: 'ALL',
      sortBy: 'number',
      desc: false,
      pageSize: 20,
      pageNumber: 1,
    }),
    enabled: canEdit,
  });
  const save = useMutation({
    mutationFn: (riskIds: string[]) =>
      apiFetch(incidentRisksPath(orgId, ticket.slug), {
        method: 'PUT',
        body: { riskIds },
        schema: z.array(incidentRiskSchema),
      }),
    onSuccess: async () => {
      setUnlinking(null);
      notifications.show({ color: 'green', message: t('risk.links.saved') });
      await queryClient.invalidateQueries({ queryKey: riskKey(orgId) });
    },
    meta: { errorKey: 'risk.links.saveFailed' },
  });
  if (!canView) return null;
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        {t('risk.links.risksTitle')}
      </Title>
      <QueryStates
        query={risks}
        loadingLabel={t('risk.links.loadingRisks')}
        failedTitle={t('risk.links.risksFailed')}
      >
        {(items) => {
          const linkedIds = items.map((risk) => risk.id);
          const toRevisit = items.filter((risk) =>
            risk.revisitScores?.incidents.some((incident) => incident.id === ticket.id),
          );
          return (
            <Stack gap="xs">
              {ticket.state === 'CLOSED' && ticket.resolution && toRevisit.length > 0 && (
                <Alert color="orange" title={t('risk.links.closedNoticeTitle')}>
                  <Text size="sm">{t('risk.links.closedNotice')}</Text>
                  <List size="sm">
                    {toRevisit.map((risk) => (
                      <List.Item key={risk.id}>
                        <RiskScoreLink risk={risk}>
                          {risk.publicId} {risk.name}
                        </RiskScoreLink>
                      </List.Item>
                    ))}
                  </List>
                </Alert>
              )}
              {items.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t('risk.links.noRisks')}
                </Text>
              ) : (
                <Table aria-label={t('risk.links.risksTitle')}>
                  <Table.Tbody>
                    {items.map((risk) => (
                      <Table.Tr key={risk.id}>
                        <Table.Td w={90}>
                          <AnchorLink
                            to="/risk/risks/register/$ref"
                            params={{ ref: risk.publicId }}
                            size="sm"
                            fw={500}
                          >
                            {risk.publicId}
                          </AnchorLink>
                        </Table.Td>
                        <Table.Td>{risk.name}</Table.Td>
                        <Table.Td w={150}>
                          {risk.revisitScores && (
                            <Badge color="orange" variant="light">
                              {t('risk.links.revisitBadge')}
                            </Badge>
                          )}
                        </Table.Td>
                        {canEdit && (
                          <Table.Td w={90}>
                            <Button
                              size="compact-xs"
                              variant="subtle"
                              color="red"
                              aria-label={t('risk.links.unlinkNamed', { name: risk.publicId })}
                              onClick={() => setUnlinking(risk)}
                            >
                              {t('risk.links.unlink')}
                            </Button>
                          </Table.Td>
                        )}
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
              {canEdit && (
                <LinkPicker
                  label={t('risk.links.linkRisk')}
                  placeholder={t('risk.links.riskPlaceholder')}
                  options={(candidates.data?.items ?? [])
                    .filter((risk) => !linkedIds.includes(risk.id))
                    .map((risk) => ({ value: risk.id, label: `${risk.publicId} ${risk.name}` }))}
                  loading={candidates.isFetching}
                  failed={candidates.isError}
                  pending={save.isPending && !unlinking}
                  onSearch={setSearch}
                  onLink={(id) => save.mutate([...linkedIds, id])}
                />
              )}
              {unlinking && (
                <ConfirmUnlink
                  title={t('risk.links.unlinkRiskTitle')}
                  message={t('risk.links.unlinkRiskConfirm', { risk: unlinking.publicId, slug: ticket.slug })}
                  pending={save.isPending}
                  onClose={() => setUnlinking(null)}
                  onConfirm={() => save.mutate(linkedIds.filter((id) => id !== unlinking.id))}
                />
              )}
            </Stack>
          );
        }}
      </QueryStates>
    </Stack>
  );
}
