import { Anchor, Badge, Button, Group, MultiSelect, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ticketPolicyLinkSchema, TICKET_POLICY_LINKS_MAX, type TicketKind } from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { useHasPermission } from '../../lib/session';
import { AnchorLink } from '../../shell/links';
import { QueryStates } from '../../shell/query-status';
import { policiesQuery, POLICY_KIND, ticketPoliciesPath, ticketPoliciesQuery } from './policies-api';

/**
 * The policies an incident or task links, for holders of the Policy Link permission; changing them
 * needs its edit level besides the ticket's own edit permission (`canEditTicket`).
 */
export function TicketPolicies({
  orgId,
  kind,
  slug,
  canEditTicket,
}: {
  orgId: string;
  kind: TicketKind;
  slug: string;
  canEditTicket: boolean;
}) {
  const { t } = useTranslation();
  const canLink = useHasPermission('POLICY_LINK_EDIT') && canEditTicket;
  const canCustom = useHasPermission('CUSTOM_POLICY_VIEW');
  const canCat = useHasPermission('CAT_POLICY_VIEW');
  const [editing, setEditing] = useState(false);
  const links = useQuery(ticketPoliciesQuery(orgId, kind, slug));
  return (
    <QueryStates
      query={links}
      loadingLabel={t('governance.policies.ticket.loading')}
      failedTitle={t('governance.policies.ticket.loadFailed')}
    >
      {(linked) =>
        editing ? (
          <LinkEditor
            orgId={orgId}
            kind={kind}
            slug={slug}
            linked={linked.map((link) => link.id)}
            kinds={[...(canCustom ? (['CUSTOM'] as const) : []), ...(canCat ? (['CAT'] as const) : [])]}
            onDone={() => setEditing(false)}
          />
        ) : (
          <Stack gap="xs" align="flex-start">
            {linked.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('governance.policies.ticket.none')}
              </Text>
            ) : (
              <Group gap="xs">
                {linked.map((link) => {
                  const viewable = link.kind === 'CAT' ? canCat : canCustom;
                  const label = `${link.name} · ${
                    link.currentVersionNumber === null
                      ? t('governance.policies.ticket.noCurrent')
                      : t('governance.policies.versionNumber', { number: link.currentVersionNumber })
                  }`;
                  return (
                    <Badge key={link.id} variant="light" size="lg" tt="none">
                      {viewable ? (
                        <AnchorLink
                          to={`${POLICY_KIND[link.kind].page}/$policyId`}
                          params={{ policyId: link.id }}
                          size="sm"
                        >
                          {label}
                        </AnchorLink>
                      ) : (
                        label
                      )}
                    </Badge>
                  );
                })}
              </Group>
            )}
            {canLink && (canCustom || canCat) && (
              <Anchor component="button" size="sm" onClick={() => setEditing(true)}>
                {t('governance.policies.ticket.edit')}
              </Anchor>
            )}
          </Stack>
        )
      }
    </QueryStates>
  );
}

function LinkEditor({
  orgId,
  kind,
  slug,
  linked,
  kinds,
  onDone,
}: {
  orgId: string;
  kind: TicketKind;
  slug: string;
  linked: string[];
  kinds: ('CUSTOM' | 'CAT')[];
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState(linked);
  const custom = useQuery({ ...policiesQuery(orgId, 'CUSTOM'), enabled: kinds.includes('CUSTOM') });
  const cat = useQuery({ ...policiesQuery(orgId, 'CAT'), enabled: kinds.includes('CAT') });
  const save = useMutation({
    mutationFn: () =>
      apiFetch(ticketPoliciesPath(orgId, kind, slug), {
        method: 'PUT',
        body: { policyIds: chosen },
        schema: z.array(ticketPolicyLinkSchema),
      }),
    onSuccess: (next) => {
      queryClient.setQueryData(ticketPoliciesQuery(orgId, kind, slug).queryKey, next);
      notifyMessage('governance.policies.ticket.saved');
      onDone();
    },
    meta: { errorKey: 'governance.policies.ticket.saveFailed' },
  });
  const groups = [
    { kind: 'CUSTOM' as const, data: custom.data ?? [] },
    { kind: 'CAT' as const, data: cat.data ?? [] },
  ]
    .filter((group) => group.data.length > 0)
    .map((group) => ({
      group: t(`governance.policies.title.${group.kind}`),
      items: group.data.map((policy) => ({ value: policy.id, label: policy.name })),
    }));
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <Stack gap="xs">
        <MultiSelect
          label={t('governance.policies.ticket.pick')}
          searchable
          maxValues={TICKET_POLICY_LINKS_MAX}
          data={groups}
          value={chosen}
          onChange={setChosen}
          disabled={custom.isLoading || cat.isLoading}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
