import { Button, Code, Drawer, Group, Menu, Stack, Table, Text } from '@mantine/core';
import { IconClockSearch } from '@tabler/icons-react';
import { isHash, isIpAddress, SEARCH_AROUND_MINUTES, type Event } from '@vigil/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  AssetPivot,
  exactTerm,
  HashPivot,
  IpPivot,
  searchAroundRange,
  useAssetsForIps,
} from '../assets/pivots';
import { ThreatRating } from '../threat/threat-rating';
import { useEventTime } from './format';

/** Free field values as text: strings as they are, anything else as JSON. */
function fieldText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  return JSON.stringify(value);
}

/** The free fields, nested objects flattened to dotted names (as the query language names them). */
export function flattenFields(fields: Record<string, unknown>, prefix = ''): [string, unknown][] {
  return Object.entries(fields).flatMap(([key, value]) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? flattenFields(value as Record<string, unknown>, `${prefix}${key}.`)
      : [[`${prefix}${key}`, value] as [string, unknown]],
  );
}

function Row({ name, children }: { name: string; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th scope="row" style={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>
        <Text size="sm" ff="monospace">
          {name}
        </Text>
      </Table.Th>
      <Table.Td style={{ wordBreak: 'break-all' }}>{children}</Table.Td>
    </Table.Tr>
  );
}

/** An address with its pivots and the assets holding it at the event's time. */
function IpValue({
  ip,
  eventTime,
  assets,
}: {
  ip: string | null;
  eventTime: string;
  assets: ReadonlyMap<string, { id: string; name: string }[]>;
}) {
  if (!ip) return <Text size="sm">—</Text>;
  return (
    <Group gap="xs">
      <IpPivot ip={ip} eventTime={eventTime} />
      {(assets.get(ip) ?? []).map((asset) => (
        <AssetPivot key={asset.id} asset={asset} />
      ))}
    </Group>
  );
}

/** A search around an event: its range, and a query when it keeps to the event's host. */
export interface SearchAround {
  query?: string;
  begin: string;
  end: string;
}

/** Searches of every event, or of the event's host, 1 or 5 minutes either side of the event. */
function SearchAroundMenu({ event, onSearch }: { event: Event; onSearch: (around: SearchAround) => void }) {
  const { t } = useTranslation();
  const scopes = [
    { key: 'all', query: undefined },
    ...(event.host ? [{ key: 'host', query: exactTerm('host', event.host) }] : []),
  ];
  return (
    <Menu position="bottom-start" withinPortal>
      <Menu.Target>
        <Button variant="default" size="xs" leftSection={<IconClockSearch size={14} />}>
          {t('events.detail.searchAround')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {scopes.map((scope) => (
          <Stack key={scope.key} gap={0}>
            <Menu.Label>
              {scope.query
                ? t('events.detail.aroundHost', { host: event.host })
                : t('events.detail.aroundAll')}
            </Menu.Label>
            {SEARCH_AROUND_MINUTES.map((minutes) => (
              <Menu.Item
                key={minutes}
                onClick={() =>
                  onSearch({ query: scope.query, ...searchAroundRange(event.timestamp, minutes) })
                }
              >
                {t('assets.pivots.searchAround', { count: minutes })}
              </Menu.Item>
            ))}
          </Stack>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * One event's columns and fields, with IP, hash and asset pivots and searches around it; in a side
 * drawer.
 */
export function EventDetail({
  event,
  onClose,
  onSearchAround,
}: {
  event: Event | null;
  onClose: () => void;
  /** Runs a search around the event; without it, no search-around is offered. */
  onSearchAround?: (around: SearchAround) => void;
}) {
  const { t } = useTranslation();
  const format = useEventTime();
  const ips = [event?.srcIp, event?.dstIp].filter(
    (ip): ip is string => typeof ip === 'string' && isIpAddress(ip),
  );
  const assets = useAssetsForIps(ips, event?.timestamp ?? null);
  return (
    <Drawer
      opened={event !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={t('events.detail.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {event && (
        <Stack gap="md">
          {onSearchAround && (
            <Group>
              <SearchAroundMenu event={event} onSearch={onSearchAround} />
            </Group>
          )}
          <Table withRowBorders={false} verticalSpacing={4}>
            <Table.Tbody>
              <Row name={t('events.columns.timestamp')}>{format(event.timestamp)}</Row>
              <Row name={t('events.columns.receivedAt')}>{format(event.receivedAt)}</Row>
              <Row name={t('events.columns.host')}>
                {event.host ? (
                  <Group gap="xs">
                    {event.host}
                    <ThreatRating subject={event.host} />
                  </Group>
                ) : (
                  '—'
                )}
              </Row>
              <Row name={t('events.columns.srcIp')}>
                <IpValue ip={event.srcIp} eventTime={event.timestamp} assets={assets} />
              </Row>
              <Row name={t('events.columns.dstIp')}>
                <IpValue ip={event.dstIp} eventTime={event.timestamp} assets={assets} />
              </Row>
              <Row name={t('events.columns.userName')}>{event.userName ?? '—'}</Row>
              <Row name={t('events.columns.dataSource')}>{event.dataSource ?? '—'}</Row>
            </Table.Tbody>
          </Table>
          <Stack gap={4}>
            <Text fw={600} size="sm">
              {t('events.columns.message')}
            </Text>
            <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
              {event.message}
            </Code>
          </Stack>
          <Stack gap={4}>
            <Text fw={600} size="sm">
              {t('events.detail.fields')}
            </Text>
            <Table withRowBorders={false} verticalSpacing={4} aria-label={t('events.detail.fields')}>
              <Table.Tbody>
                {flattenFields(event.fields).map(([name, value]) => {
                  const text = fieldText(value);
                  return (
                    <Row key={name} name={name}>
                      {isHash(text) ? (
                        <Group gap="xs">
                          <HashPivot hash={text} eventTime={event.timestamp} field={name} />
                          <ThreatRating subject={text} />
                        </Group>
                      ) : isIpAddress(text) ? (
                        <IpPivot ip={text} eventTime={event.timestamp} field={name} />
                      ) : (
                        <Text size="sm" ff="monospace">
                          {text}
                        </Text>
                      )}
                    </Row>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Stack>
        </Stack>
      )}
    </Drawer>
  );
}
