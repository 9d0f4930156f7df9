import { Button, Checkbox, Group, Modal, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  THREAT_SOURCE_DESCRIPTION_MAX_LENGTH,
  THREAT_SOURCE_NAME_MAX_LENGTH,
  THREAT_SOURCE_TYPES,
  THREAT_SOURCE_URL_MAX_LENGTH,
  threatSourceSchema,
  type ThreatDomain,
  type ThreatSource,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, apiFetch } from '../../lib/api';
import { describeError, notifyError, notifyMessage } from '../../lib/notify';
import { threatSourcePath, threatSourcesKey } from './threat';

type SourceType = (typeof THREAT_SOURCE_TYPES)[number];

/** Creates an own threat source of `domain`, or changes one the caller may edit. */
export function SourceDialog({
  orgId,
  domain,
  source,
  onClose,
}: {
  orgId: string;
  domain: ThreatDomain;
  source: ThreatSource | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState(source?.name ?? '');
  const [description, setDescription] = useState(source?.description ?? '');
  const [url, setUrl] = useState(source?.url ?? '');
  const [type, setType] = useState<SourceType>(source?.type ?? 'COMMERCIAL');
  const [enabled, setEnabled] = useState(source?.enabled ?? true);
  const [submitted, setSubmitted] = useState(false);
  const [nameError, setNameError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () =>
      apiFetch(threatSourcePath(orgId, source?.id), {
        method: source ? 'PUT' : 'POST',
        body: {
          domain,
          name: name.trim(),
          description: description.trim(),
          url: url.trim() || null,
          type,
          enabled,
        },
        schema: threatSourceSchema,
      }),
    onSuccess: async () => {
      notifyMessage(source ? 'threat.sources.saved' : 'threat.sources.created');
      onClose();
      await queryClient.invalidateQueries({ queryKey: threatSourcesKey(orgId) });
    },
    onError: (error) => {
      if (error instanceof ApiRequestError && error.error.key === 'THREAT_SOURCE_NAME_TAKEN') {
        setNameError(describeError(error, t));
      } else notifyError(error, 'threat.sources.saveFailed');
    },
    meta: { notifyError: false },
  });
  const nameMissing = submitted && name.trim() === '';
  return (
    <Modal
      opened
      onClose={onClose}
      title={source ? t('threat.sources.editTitle') : t('threat.sources.newTitle')}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
          if (name.trim() !== '') save.mutate();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('threat.sources.name')}
            required
            data-autofocus
            maxLength={THREAT_SOURCE_NAME_MAX_LENGTH}
            value={name}
            onChange={(event) => {
              setName(event.currentTarget.value);
              setNameError(null);
            }}
            error={nameMissing ? t('ERROR_REQUIRED') : nameError}
          />
          <Textarea
            label={t('threat.sources.description')}
            maxLength={THREAT_SOURCE_DESCRIPTION_MAX_LENGTH}
            autosize
            minRows={2}
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
          />
          <TextInput
            label={t('threat.sources.url')}
            type="url"
            maxLength={THREAT_SOURCE_URL_MAX_LENGTH}
            value={url}
            onChange={(event) => setUrl(event.currentTarget.value)}
          />
          <Select
            label={t('threat.sources.type')}
            data={THREAT_SOURCE_TYPES.map((value) => ({ value, label: t(`threat.sources.types.${value}`) }))}
            value={type}
            allowDeselect={false}
            onChange={(value) => value && setType(value as SourceType)}
          />
          <Checkbox
            label={t('threat.sources.enabled')}
            checked={enabled}
            onChange={(event) => setEnabled(event.currentTarget.checked)}
          />
          <Group justify="flex-end" gap="sm">
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
