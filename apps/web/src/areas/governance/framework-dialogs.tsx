import { ActionIcon, Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  FRAMEWORK_TIER_MAX_LENGTH,
  FRAMEWORK_TIERS_MAX,
  frameworkDetailSchema,
  GOVERNANCE_NAME_MAX_LENGTH,
  GOVERNANCE_TEXT_MAX_LENGTH,
  type FrameworkDetail,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { describeError, notifyMessage } from '../../lib/notify';
import { frameworkPath, frameworkQuery, governanceKey } from './api';

/** Saves a change of the framework and shows the answer; errors stay in the dialog. */
function useFrameworkChange(orgId: string, framework: FrameworkDetail, onClose: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ suffix, method, body }: { suffix: string; method: 'PATCH' | 'PUT'; body: object }) =>
      apiFetch(`${frameworkPath(orgId, framework.id)}${suffix}`, {
        method,
        body,
        schema: frameworkDetailSchema,
      }),
    onSuccess: async (updated) => {
      queryClient.setQueryData(frameworkQuery(orgId, framework.id).queryKey, updated);
      notifyMessage('governance.framework.saved');
      await queryClient.invalidateQueries({ queryKey: governanceKey(orgId) });
      onClose();
    },
    meta: { notifyError: false },
  });
}

/** The server's refusal, if any, above Cancel and Save. */
function SaveFooter({
  error,
  saving,
  onClose,
}: {
  error: Error | null;
  saving: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      {error && (
        <Text size="sm" c="red" role="alert">
          {describeError(error, t)}
        </Text>
      )}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" loading={saving}>
          {t('common.save')}
        </Button>
      </Group>
    </>
  );
}

interface DialogProps {
  orgId: string;
  framework: FrameworkDetail;
  onClose: () => void;
}

/** Renames a framework and changes its description. */
export function EditFrameworkDialog({ orgId, framework, onClose }: DialogProps) {
  const { t } = useTranslation();
  const [name, setName] = useState(framework.name);
  const [description, setDescription] = useState(framework.description);
  const [submitted, setSubmitted] = useState(false);
  const save = useFrameworkChange(orgId, framework, onClose);
  return (
    <Modal opened onClose={onClose} title={t('governance.framework.editTitle')}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
          if (name.trim()) {
            save.mutate({ suffix: '', method: 'PATCH', body: { name: name.trim(), description } });
          }
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('governance.framework.name')}
            required
            maxLength={GOVERNANCE_NAME_MAX_LENGTH}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={submitted && !name.trim() ? t('ERROR_REQUIRED') : undefined}
          />
          <Textarea
            label={t('governance.framework.description')}
            autosize
            minRows={3}
            maxLength={GOVERNANCE_TEXT_MAX_LENGTH}
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
          />
          <SaveFooter error={save.error} saving={save.isPending} onClose={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * The framework's maturity tiers, lowest first: renamed, reordered, added or removed. The server keeps
 * the tiers that targets and periods hold, and says which one when a change would drop it.
 */
export function TiersDialog({ orgId, framework, onClose }: DialogProps) {
  const { t } = useTranslation();
  // Each row keeps its own key so that inputs keep their focus while rows move.
  const [rows, setRows] = useState(() => framework.tiers.map((name, key) => ({ key, name })));
  const [nextKey, setNextKey] = useState(framework.tiers.length);
  const [submitted, setSubmitted] = useState(false);
  const save = useFrameworkChange(orgId, framework, onClose);
  const move = (index: number, by: number) =>
    setRows((current) => {
      const next = [...current];
      const [row] = next.splice(index, 1);
      next.splice(index + by, 0, row!);
      return next;
    });
  const blank = rows.some((row) => !row.name.trim());
  return (
    <Modal opened onClose={onClose} title={t('governance.framework.tiersTitle')} size="lg">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
          if (!blank) {
            save.mutate({
              suffix: '/tiers',
              method: 'PUT',
              body: { tiers: rows.map((row) => row.name.trim()) },
            });
          }
        }}
      >
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('governance.framework.tiersHelp')}
          </Text>
          {rows.length === 0 && <Text size="sm">{t('governance.framework.noTiers')}</Text>}
          {rows.map((row, index) => (
            <Group key={row.key} gap="xs" align="flex-start" wrap="nowrap">
              <TextInput
                flex={1}
                label={t('governance.framework.tierLabel', { number: index + 1 })}
                maxLength={FRAMEWORK_TIER_MAX_LENGTH}
                value={row.name}
                onChange={(event) => {
                  const name = event.currentTarget.value;
                  setRows((current) =>
                    current.map((item) => (item.key === row.key ? { ...item, name } : item)),
                  );
                }}
                error={submitted && !row.name.trim() ? t('ERROR_REQUIRED') : undefined}
              />
              <ActionIcon
                variant="subtle"
                mt={26}
                disabled={index === 0}
                aria-label={t('governance.framework.tierUp', { number: index + 1 })}
                onClick={() => move(index, -1)}
              >
                <IconArrowUp size={16} />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                mt={26}
                disabled={index === rows.length - 1}
                aria-label={t('governance.framework.tierDown', { number: index + 1 })}
                onClick={() => move(index, 1)}
              >
                <IconArrowDown size={16} />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                color="red"
                mt={26}
                aria-label={t('governance.framework.tierRemove', { number: index + 1 })}
                onClick={() => setRows((current) => current.filter((item) => item.key !== row.key))}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
          <Group>
            <Button
              size="compact-sm"
              variant="subtle"
              leftSection={<IconPlus size={14} />}
              disabled={rows.length >= FRAMEWORK_TIERS_MAX}
              onClick={() => {
                setRows((current) => [...current, { key: nextKey, name: '' }]);
                setNextKey(nextKey + 1);
              }}
            >
              {t('governance.framework.addTier')}
            </Button>
          </Group>
          <SaveFooter error={save.error} saving={save.isPending} onClose={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
