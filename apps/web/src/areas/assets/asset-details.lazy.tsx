import { Alert, Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconPencil } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createLazyRoute, useNavigate } from '@tanstack/react-router';
import { isIpAddress, isPrivateAddress, type Asset } from '@vigil/contracts';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../lib/api';
import { errorMessage } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { GatedPage } from '../../shell/gated-page';
import { ButtonLink } from '../../shell/links';
import { LoadFailed, LoadingLine } from '../../shell/query-status';
import { ThreatRating } from '../threat/threat-rating';
import { ImportanceDots, LabelBadges, TrackedBadge } from './asset-badges';
import { AssetDialog, AssetSoftwareTable, useDateTime } from './asset-dialog';
import { IpPivot } from './pivots';
import { assetQuery } from './queries';

export const Route = createLazyRoute('/assets/$assetId')({
  component: AssetDetailsPage,
});

/** Spec 2 section 2: one asset, with its addresses (pivots into event search) and software. */
function AssetDetailsPage() {
  const { t } = useTranslation();
  const { assetId } = Route.useParams();
  const orgId = useCurrentOrgId() ?? '';
  const allowed = useHasPermission('ASSET_VIEW');
  const asset = useQuery({ ...assetQuery(orgId, assetId), enabled: allowed && orgId !== '' });
  return (
    <GatedPage title={asset.data?.name ?? t('assets.details.title')} allowed={allowed}>
      <Stack gap="md">
        <ButtonLink
          to="/assets"
          variant="subtle"
          leftSection={<IconArrowLeft size={16} />}
          style={{ alignSelf: 'flex-start' }}
        >
          {t('assets.details.back')}
        </ButtonLink>
        {asset.isPending ? (
          <LoadingLine label={t('assets.details.loading')} />
        ) : asset.isError ? (
          asset.error instanceof ApiRequestError && asset.error.status === 404 ? (
            <Alert color="gray" title={t('assets.details.notFoundTitle')}>
              {asset.error.error.key === 'ASSET_NOT_FOUND' && asset.error.error.params
                ? errorMessage(asset.error.error, t)
                : t('ASSET_NOT_FOUND', { 0: assetId })}
            </Alert>
          ) : (
            <LoadFailed
              title={t('assets.details.loadFailed')}
              error={asset.error}
              onRetry={() => void asset.refetch()}
            />
          )
        ) : (
          <AssetDetails asset={asset.data} />
        )}
      </Stack>
    </GatedPage>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <div>{children}</div>
    </Stack>
  );
}

const orDash = (value: string | null) => value ?? '—';

function AssetDetails({ asset }: { asset: Asset }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const orgId = useCurrentOrgId() ?? '';
  const canEdit = useHasPermission('ASSET_EDIT');
  const [dialogOpen, setDialogOpen] = useState(false);
  const format = useDateTime();

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Group gap="sm">
          <ImportanceDots importance={asset.importance} size={12} />
          <Text size="sm">{t(`assets.importance.${asset.importance}`)}</Text>
          <TrackedBadge tracked={asset.tracked} />
          {!asset.active && (
            <Badge color="red" variant="light">
              {t('assets.deleted')}
            </Badge>
          )}
        </Group>
        <Button
          leftSection={<IconPencil size={16} />}
          variant={canEdit && asset.active ? 'filled' : 'default'}
          onClick={() => setDialogOpen(true)}
        >
          {canEdit && asset.active ? t('assets.details.edit') : t('assets.details.open')}
        </Button>
      </Group>

      <Card withBorder>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
          <Field label={t('assets.fields.tag')}>{orDash(asset.tag)}</Field>
          <Field label={t('assets.fields.owner')}>{orDash(asset.owner)}</Field>
          <Field label={t('assets.fields.labels')}>
            <LabelBadges labels={asset.labels} />
          </Field>
          <Field label={t('assets.fields.lastSeen')}>{format(asset.lastSeen)}</Field>
          <Field label={t('assets.fields.dataLastSent')}>{format(asset.dataLastSent)}</Field>
          <Field label={t('assets.fields.hostnames')}>
            {asset.hostnames.length === 0 ? (
              '—'
            ) : (
              <Stack gap={4}>
                {asset.hostnames.map((hostname) => (
                  <Group key={hostname} gap="xs">
                    <Text size="sm" ff="monospace">
                      {hostname}
                    </Text>
                    <ThreatRating subject={hostname} />
                  </Group>
                ))}
              </Stack>
            )}
          </Field>
          <Field label={t('assets.fields.createdOn')}>{format(asset.createdOn)}</Field>
          <Field label={t('assets.fields.modifiedOn')}>{format(asset.modifiedOn)}</Field>
        </SimpleGrid>
        {asset.description && (
          <Stack gap={2} mt="md">
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              {t('assets.fields.description')}
            </Text>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {asset.description}
            </Text>
          </Stack>
        )}
      </Card>

      <Title order={2} size="h4">
        {t('assets.details.addresses')}
      </Title>
      {asset.ipMacPairs.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('assets.dialog.noPairs')}
        </Text>
      ) : (
        <Table striped maw={720}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('assets.fields.ip')}</Table.Th>
              <Table.Th>{t('assets.fields.mac')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {asset.ipMacPairs.map((pair) => (
              <Table.Tr key={`${pair.ip ?? ''}/${pair.mac ?? ''}`}>
                <Table.Td>
                  {pair.ip ? (
                    <Group gap="xs" wrap="nowrap">
                      <IpPivot ip={pair.ip} eventTime={asset.lastSeen} />
                      {isIpAddress(pair.ip) && isPrivateAddress(pair.ip) && (
                        <Badge size="xs" variant="light" color="gray">
                          {t('assets.private')}
                        </Badge>
                      )}
                    </Group>
                  ) : (
                    '—'
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {orDash(pair.mac)}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}

      <Title order={2} size="h4">
        {t('assets.dialog.tabs.software')}
      </Title>
      <AssetSoftwareTable orgId={orgId} assetId={asset.id} />

      <AssetDialog
        opened={dialogOpen}
        asset={asset}
        onClose={() => setDialogOpen(false)}
        onGone={() => void navigate({ to: '/assets' })}
      />
    </Stack>
  );
}
