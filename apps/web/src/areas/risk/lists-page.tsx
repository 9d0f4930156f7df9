import {
  ActionIcon,
  Button,
  Card,
  Group,
  Modal,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  RISK_LIST_KINDS,
  RISK_LIST_NAME_MAX_LENGTH,
  riskListItemSchema,
  type RiskListItem,
  type RiskListKind,
} from '@vigil/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch, orgPath } from '../../lib/api';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { GatedPage } from '../../shell/gated-page';
import { AnchorLink } from '../../shell/links';
import { QueryStates } from '../../shell/query-status';
import { riskKey, riskListsQuery } from './api';
import { useRiskModules } from './module-badges';

/** The organisation's custom lists (/risk/lists): audits, asset types, policies, business units, owners, vendors. */
export function RiskListsPage() {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canView = useHasPermission('RISK_VIEW');
  const allowed = useRiskModules().length > 0 && canView;
  const lists = useQuery({ ...riskListsQuery(orgId), enabled: allowed });
  return (
    <GatedPage title={t('risk.lists.title')} allowed={allowed} maw={1200}>
      <Text c="dimmed">
        {t('risk.lists.tagsHint')} <AnchorLink to="/settings/tags">{t('risk.lists.tagsLink')}</AnchorLink>
      </Text>
      <QueryStates query={lists} loadingLabel={t('risk.loading')} failedTitle={t('risk.loadFailed')}>
        {(items) => (
          <SimpleGrid cols={{ base: 1, md: 2, lg: 3 }}>
            {RISK_LIST_KINDS.map((kind) => (
              <ListCard
                key={kind}
                orgId={orgId}
                kind={kind}
                items={items.filter((item) => item.kind === kind)}
              />
            ))}
          </SimpleGrid>
        )}
      </QueryStates>
    </GatedPage>
  );
}

function ListCard({ orgId, kind, items }: { orgId: string; kind: RiskListKind; items: RiskListItem[] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const canEdit = useHasPermission('RISK_EDIT');
  const [name, setName] = useState('');
  const [removing, setRemoving] = useState<RiskListItem | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: riskKey(orgId) });
  const add = useMutation({
    mutationFn: () =>
      apiFetch(`${orgPath(orgId)}/risk-lists/${kind}`, {
        method: 'POST',
        body: { name: name.trim() },
        schema: riskListItemSchema,
      }),
    onSuccess: async () => {
      setName('');
      await refresh();
    },
    meta: { errorKey: 'risk.saveFailed' },
  });
  const remove = useMutation({
    mutationFn: (id: string) => apiFetch(`${orgPath(orgId)}/risk-lists/item/${id}`, { method: 'DELETE' }),
    onSuccess: async () => {
      setRemoving(null);
      await refresh();
    },
    meta: { errorKey: 'risk.saveFailed' },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim()) add.mutate();
  };
  const title = t(`risk.lists.kinds.${kind}`);
  return (
    <Card withBorder>
      <Stack gap="xs">
        <Title order={3}>{title}</Title>
        {items.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('risk.lists.empty')}
          </Text>
        )}
        {items.map((item) => (
          <Group key={item.id} justify="space-between">
            <Text size="sm">{item.name}</Text>
            {canEdit && (
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t('risk.lists.remove', { name: item.name })}
                onClick={() => setRemoving(item)}
              >
                <IconTrash size={16} />
              </ActionIcon>
            )}
          </Group>
        ))}
        {canEdit && (
          <form onSubmit={submit}>
            <Group align="flex-end" gap="xs">
              <TextInput
                aria-label={t('risk.lists.newName', { list: title })}
                placeholder={t('risk.lists.newName', { list: title })}
                maxLength={RISK_LIST_NAME_MAX_LENGTH}
                value={name}
                onChange={(event) => setName(event.currentTarget.value)}
                style={{ flex: 1 }}
              />
              <Button type="submit" loading={add.isPending} disabled={!name.trim()}>
                {t('risk.lists.add')}
              </Button>
            </Group>
          </form>
        )}
      </Stack>
      {removing && (
        <Modal opened onClose={() => setRemoving(null)} title={t('risk.lists.removeTitle')} centered>
          <Stack>
            <Text>{t('risk.lists.removeConfirm', { name: removing.name })}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setRemoving(null)}>
                {t('common.cancel')}
              </Button>
              <Button color="red" loading={remove.isPending} onClick={() => remove.mutate(removing.id)}>
                {t('risk.delete')}
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}
    </Card>
  );
}
