import { Group, Menu, Text, UnstyledButton, type MenuItemProps } from '@mantine/core';
import { IconChevronDown, IconExternalLink, IconSearch, IconServer } from '@tabler/icons-react';
import { useQueries } from '@tanstack/react-query';
import { createLink } from '@tanstack/react-router';
import {
  ASSET_LOOKUP_MAX_BATCH,
  assetLookupResponseSchema,
  isHash,
  isIpAddress,
  isPrivateAddress,
  normaliseIp,
  SEARCH_AROUND_MINUTES,
  type AssetSummary,
} from '@vigil/contracts';
import { useCallback, type ComponentPropsWithRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { assetsKey, orgPath } from './queries';

/*
 * Asset pivots for event views (spec 2 section 2): an asset dropdown, and IP and hash dropdowns offering
 * event searches around the event time and external lookups, opened in new tabs. With EVENT_VIEW they
 * show menus; without it, plain text.
 */

const MINUTE_MS = 60_000;

type MenuItemAnchorProps = MenuItemProps & Omit<ComponentPropsWithRef<'a'>, keyof MenuItemProps>;

function MenuItemAnchor(props: MenuItemAnchorProps) {
  return <Menu.Item component="a" {...props} />;
}

/** A menu entry that is a router link. */
const MenuItemLink = createLink(MenuItemAnchor);

/** A query term matching `value` exactly in `field`: `ip:"10.0.0.1"`. */
export function exactTerm(field: string, value: string): string {
  return `${field}:"${value.replace(/["\\]/g, '\\$&')}"`;
}

/** From `minutes` before to `minutes` after `eventTime`, as ISO times. */
export function searchAroundRange(eventTime: string | Date, minutes: number): { begin: string; end: string } {
  const time = new Date(eventTime).getTime();
  return {
    begin: new Date(time - minutes * MINUTE_MS).toISOString(),
    end: new Date(time + minutes * MINUTE_MS).toISOString(),
  };
}

/**
 * The /search address of events whose `field` is `value`, from `minutes` before to `minutes` after
 * `eventTime`, in the organisation `orgId`.
 */
export function searchAroundUrl({
  field,
  value,
  eventTime,
  minutes,
  orgId,
}: {
  field: string;
  value: string;
  eventTime: string | Date;
  minutes: number;
  orgId: string | undefined;
}): string {
  const params = new URLSearchParams({
    query: exactTerm(field, value),
    ...searchAroundRange(eventTime, minutes),
  });
  if (orgId) params.set('orgId', orgId);
  return `/search?${params.toString()}`;
}

export interface ExternalLookup {
  name: string;
  url: string;
}

/** Public reputation services for an address that is not in a private range. */
export function ipLookups(ip: string): ExternalLookup[] {
  if (!isIpAddress(ip) || isPrivateAddress(ip)) return [];
  const value = encodeURIComponent(ip);
  return [
    { name: 'AbuseIPDB', url: `https://www.abuseipdb.com/check/${value}` },
    { name: 'Shodan', url: `https://www.shodan.io/host/${value}` },
    { name: 'VirusTotal', url: `https://www.virustotal.com/gui/ip-address/${value}` },
  ];
}

/** Public reputation services for a file signature. */
export function hashLookups(hash: string): ExternalLookup[] {
  if (!isHash(hash)) return [];
  return [{ name: 'VirusTotal', url: `https://www.virustotal.com/gui/file/${encodeURIComponent(hash)}` }];
}

const validTime = (value: string | Date | null | undefined): value is string | Date =>
  value !== null && value !== undefined && !Number.isNaN(new Date(value).getTime());

/**
 * The dropdown's button: the value itself, marked as opening a menu. Menu.Target passes it its ref and
 * handlers.
 */
function PivotTarget({
  children,
  label,
  ...props
}: { children: ReactNode; label: string } & Omit<ComponentPropsWithRef<'button'>, 'children'>) {
  return (
    <UnstyledButton {...props} aria-label={label} style={{ maxWidth: '100%' }}>
      <Group gap={2} wrap="nowrap">
        <Text span size="sm" c="blue" ff="monospace" truncate>
          {children}
        </Text>
        <IconChevronDown size={12} aria-hidden />
      </Group>
    </UnstyledButton>
  );
}

/** Menu entries for event searches around `eventTime` and for external lookups. */
function SearchAndLookupItems({
  field,
  value,
  eventTime,
  lookups,
}: {
  field: string;
  value: string;
  eventTime: string | Date | null | undefined;
  lookups: ExternalLookup[];
}) {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId();
  return (
    <>
      {validTime(eventTime) && (
        <>
          <Menu.Label>{t('assets.pivots.searchEvents')}</Menu.Label>
          {SEARCH_AROUND_MINUTES.map((minutes) => (
            <Menu.Item
              key={minutes}
              component="a"
              href={searchAroundUrl({ field, value, eventTime, minutes, orgId })}
              target="_blank"
              rel="noopener noreferrer"
              leftSection={<IconSearch size={14} />}
            >
              {t('assets.pivots.searchAround', { count: minutes })}
            </Menu.Item>
          ))}
        </>
      )}
      {lookups.length > 0 && (
        <>
          <Menu.Label>{t('assets.pivots.lookUp')}</Menu.Label>
          {lookups.map((lookup) => (
            <Menu.Item
              key={lookup.name}
              component="a"
              href={lookup.url}
              target="_blank"
              rel="noopener noreferrer"
              leftSection={<IconExternalLink size={14} />}
            >
              {t('assets.pivots.lookUpIn', { service: lookup.name })}
            </Menu.Item>
          ))}
        </>
      )}
    </>
  );
}

export interface IpPivotProps {
  ip: string;
  /** The time of the event the address was seen in; the searches are around it. */
  eventTime: string | Date | null | undefined;
  /** The query field the searches match; `ip` stands for the source and destination addresses. */
  field?: string;
}

/** An IP address: with EVENT_VIEW a menu of searches around the event and, for a public address, lookups. */
export function IpPivot({ ip, eventTime, field = 'ip' }: IpPivotProps) {
  const { t } = useTranslation();
  if (!useHasPermission('EVENT_VIEW')) {
    return (
      <Text span size="sm" ff="monospace">
        {ip}
      </Text>
    );
  }
  return (
    <Menu position="bottom-start" withinPortal>
      <Menu.Target>
        <PivotTarget label={t('assets.pivots.ipMenu', { value: ip })}>{ip}</PivotTarget>
      </Menu.Target>
      <Menu.Dropdown>
        <SearchAndLookupItems field={field} value={ip} eventTime={eventTime} lookups={ipLookups(ip)} />
      </Menu.Dropdown>
    </Menu>
  );
}

export interface HashPivotProps {
  hash: string;
  eventTime: string | Date | null | undefined;
  field?: string;
}

/** A file signature: with EVENT_VIEW a menu of searches around the event and a lookup. */
export function HashPivot({ hash, eventTime, field = 'hash' }: HashPivotProps) {
  const { t } = useTranslation();
  if (!useHasPermission('EVENT_VIEW')) {
    return (
      <Text span size="sm" ff="monospace">
        {hash}
      </Text>
    );
  }
  return (
    <Menu position="bottom-start" withinPortal>
      <Menu.Target>
        <PivotTarget label={t('assets.pivots.hashMenu', { value: hash })}>{hash}</PivotTarget>
      </Menu.Target>
      <Menu.Dropdown>
        <SearchAndLookupItems field={field} value={hash} eventTime={eventTime} lookups={hashLookups(hash)} />
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * An asset named in an event: with EVENT_VIEW (and ASSET_VIEW, which the details page needs) a menu
 * that opens its details; otherwise its name.
 */
export function AssetPivot({ asset }: { asset: Pick<AssetSummary, 'id' | 'name'> }) {
  const { t } = useTranslation();
  const canSearch = useHasPermission('EVENT_VIEW');
  const canView = useHasPermission('ASSET_VIEW');
  if (!canSearch || !canView) {
    return (
      <Text span size="sm">
        {asset.name}
      </Text>
    );
  }
  return (
    <Menu position="bottom-start" withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label={t('assets.pivots.assetMenu', { name: asset.name })}>
          <Group gap={2} wrap="nowrap">
            <Text span size="sm" c="blue" truncate>
              {asset.name}
            </Text>
            <IconChevronDown size={12} aria-hidden />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <MenuItemLink
          to="/assets/$assetId"
          params={{ assetId: asset.id }}
          leftSection={<IconServer size={14} />}
        >
          {t('assets.pivots.openAsset')}
        </MenuItemLink>
      </Menu.Dropdown>
    </Menu>
  );
}

// ---------------------------------------------------------------------------------------------
// Batched IP lookups
// ---------------------------------------------------------------------------------------------

interface PendingLookup {
  address: string;
  resolve: (assets: AssetSummary[]) => void;
  reject: (error: unknown) => void;
}

const pendingBatches = new Map<
  string,
  { orgId: string; timestamp: string | null; lookups: PendingLookup[] }
>();

const lookupKey = (address: string) => (isIpAddress(address) ? normaliseIp(address) : address);

async function sendBatch(orgId: string, timestamp: string | null, lookups: PendingLookup[]): Promise<void> {
  const addresses = [...new Set(lookups.map((lookup) => lookup.address))];
  for (let start = 0; start < addresses.length; start += ASSET_LOOKUP_MAX_BATCH) {
    const chunk = addresses.slice(start, start + ASSET_LOOKUP_MAX_BATCH);
    const waiting = lookups.filter((lookup) => chunk.includes(lookup.address));
    const params = new URLSearchParams();
    for (const address of chunk) params.append('address', address);
    if (timestamp) params.set('timestamp', timestamp);
    try {
      const { items } = await apiFetch(`${orgPath(orgId)}/ip/assets?${params.toString()}`, {
        schema: assetLookupResponseSchema,
      });
      // The server answers addresses in their stored form (an IPv6 address canonical).
      const found = new Map(items.map((item) => [lookupKey(item.value), item.assets]));
      for (const lookup of waiting) lookup.resolve(found.get(lookupKey(lookup.address)) ?? []);
    } catch (error) {
      for (const lookup of waiting) lookup.reject(error);
    }
  }
}

/**
 * The assets holding `address` (at `timestamp`, when given). Lookups asked for in the same tick go out
 * together in one GET /ip/assets with the address repeated, at most ASSET_LOOKUP_MAX_BATCH a call.
 */
export function lookUpIpAssets(
  orgId: string,
  address: string,
  timestamp: string | null,
): Promise<AssetSummary[]> {
  return new Promise((resolve, reject) => {
    const key = `${orgId}\u0000${timestamp ?? ''}`;
    let batch = pendingBatches.get(key);
    if (!batch) {
      batch = { orgId, timestamp, lookups: [] };
      pendingBatches.set(key, batch);
      setTimeout(() => {
        pendingBatches.delete(key);
        void sendBatch(orgId, timestamp, batch?.lookups ?? []);
      }, 0);
    }
    batch.lookups.push({ address, resolve, reject });
  });
}

/**
 * The assets each of `ips` belonged to at `timestamp` (now when absent), as a map from address to
 * assets; addresses still loading, not valid or whose lookup failed are absent. Spec 2 section 8: a
 * failed lookup is not shown to the user; the API client reports it to error tracking.
 */
export function useAssetsForIps(
  ips: readonly string[],
  timestamp?: string | null,
): ReadonlyMap<string, AssetSummary[]> {
  const orgId = useCurrentOrgId() ?? '';
  const at = timestamp ?? null;
  const addresses = [...new Set(ips.filter((ip) => isIpAddress(ip)))];
  const key = addresses.join('\u0000');
  // Stable while the addresses are, so that the map changes only when an answer does.
  const combine = useCallback(
    (results: { data?: AssetSummary[] }[]) => {
      const map = new Map<string, AssetSummary[]>();
      key.split('\u0000').forEach((address, index) => {
        const assets = results[index]?.data;
        if (address && assets) map.set(address, assets);
      });
      return map;
    },
    [key],
  );
  return useQueries({
    queries: addresses.map((address) => ({
      queryKey: [...assetsKey(orgId), 'ip-lookup', at, address] as const,
      queryFn: () => lookUpIpAssets(orgId, address, at),
      enabled: orgId !== '',
      retry: false,
      staleTime: 60_000,
    })),
    combine,
  });
}
