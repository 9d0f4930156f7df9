import {
  Button,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  GOVERNANCE_NAME_MAX_LENGTH,
  GOVERNANCE_TEXT_MAX_LENGTH,
  POLICY_BODY_MAX_LENGTH,
  POLICY_REVIEW_MONTHS_MAX,
  policyDetailSchema,
  type PolicyDetail,
  type PolicyKind,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { describeError } from '../../lib/notify';
import { personSummariesQuery } from '../settings/metadata-queries';
import { governancePath } from './api';
import { catRefsQuery, POLICY_KIND, policyPath } from './policies-api';

/**
 * Creates a policy with its first version, or changes an existing policy's own fields (its text changes
 * through a new version).
 */
export function PolicyForm({
  orgId,
  kind,
  policy,
  onSaved,
  onClose,
}: {
  orgId: string;
  kind: PolicyKind;
  policy?: PolicyDetail;
  onSaved: (policy: PolicyDetail) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const people = useQuery(personSummariesQuery(orgId));
  const catRefs = useQuery({ ...catRefsQuery(orgId), enabled: kind === 'CAT' });
  const [name, setName] = useState(policy?.name ?? '');
  const [description, setDescription] = useState(policy?.description ?? '');
  const [ownerId, setOwnerId] = useState<string | null>(policy?.ownerId ?? null);
  const [reviewEveryMonths, setReviewEveryMonths] = useState<number>(policy?.reviewEveryMonths ?? 12);
  const [refs, setRefs] = useState<string[]>(policy?.catRefs ?? []);
  const [body, setBody] = useState('');
  const save = useMutation({
    mutationFn: () => {
      const fields = { name, description, ownerId, reviewEveryMonths, catRefs: refs };
      return policy
        ? apiFetch(policyPath(orgId, kind, policy.id), {
            method: 'PATCH',
            body: fields,
            schema: policyDetailSchema,
          })
        : apiFetch(`${governancePath(orgId)}/${POLICY_KIND[kind].one}`, {
            method: 'POST',
            body: { ...fields, body },
            schema: policyDetailSchema,
          });
    },
    onSuccess: onSaved,
    meta: { notifyError: false },
  });
  const owners = (people.data ?? [])
    .filter((person) => person.active || person.id === ownerId)
    .map((person) => ({ value: person.id, label: person.fullName }));
  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={t(policy ? 'governance.policies.editTitle' : 'governance.policies.newTitle')}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('governance.policies.name')}
            required
            maxLength={GOVERNANCE_NAME_MAX_LENGTH}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
          />
          <Textarea
            label={t('governance.policies.description')}
            autosize
            minRows={2}
            maxLength={GOVERNANCE_TEXT_MAX_LENGTH}
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
          />
          <Group grow align="flex-start">
            <Select
              label={t('governance.policies.owner')}
              placeholder={t('governance.policies.noOwner')}
              clearable
              searchable
              data={owners}
              value={ownerId}
              onChange={setOwnerId}
            />
            <NumberInput
              label={t('governance.policies.reviewEvery')}
              min={1}
              max={POLICY_REVIEW_MONTHS_MAX}
              allowDecimal={false}
              value={reviewEveryMonths}
              onChange={(value) => setReviewEveryMonths(typeof value === 'number' ? value : 12)}
            />
          </Group>
          {kind === 'CAT' && (
            <MultiSelect
              label={t('governance.policies.catRefs')}
              searchable
              data={(catRefs.data ?? []).map((item) => ({
                value: item.ref,
                label: `${'· '.repeat(item.depth)}${item.ref} ${item.title}`,
              }))}
              value={refs}
              onChange={setRefs}
            />
          )}
          {!policy && (
            <Textarea
              label={t('governance.policies.body')}
              description={t('governance.policies.bodyHint')}
              required
              autosize
              minRows={6}
              maxLength={POLICY_BODY_MAX_LENGTH}
              value={body}
              onChange={(event) => setBody(event.currentTarget.value)}
            />
          )}
          {save.error && (
            <Text size="sm" c="red" role="alert">
              {describeError(save.error, t)}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
