import { ActionIcon, Button, Checkbox, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  CLASSIFIER_DESCRIPTION_MAX_LENGTH,
  CLASSIFIER_MAX_METADATA,
  CLASSIFIER_METADATA_KEY_MAX_LENGTH,
  CLASSIFIER_METADATA_KEY_PATTERN,
  CLASSIFIER_METADATA_VALUE_MAX_LENGTH,
  CLASSIFIER_NAME_MAX_LENGTH,
  CLASSIFIER_OPTIONS,
  CLASSIFIER_QUERY_MAX_LENGTH,
  classifierSchema,
  type Classifier,
  type ClassifierOption,
} from '@vigil/contracts';
import { validateQuery } from '@vigil/query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, apiFetch } from '../../lib/api';
import { notifyError, notifyMessage } from '../../lib/notify';
import { classifiersKey, classifiersPath, type ClassifierMode } from './queries';

interface Attribute {
  /** Stable row identity while keys are typed. */
  row: number;
  key: string;
  value: string;
}

type Options = Record<ClassifierOption, boolean>;

const METADATA_ERRORS = new Set([
  'CLASSIFIER_INVALID_METADATA_KEY',
  'CLASSIFIER_METADATA_KEY_RESERVED',
  'CLASSIFIER_METADATA_VALUE_TOO_LONG',
  'CLASSIFIER_TOO_MANY_METADATA',
]);

let rows = 0;
const attribute = (key = '', value = ''): Attribute => ({ row: ++rows, key, value });

/**
 * Adds a classifier to the organisation or the library, or changes `classifier`. The query is checked
 * as it is saved (the fault's position shown beside it); metadata keys are checked as they are typed.
 * Accelerated archive is offered only where it can take effect (`archiveAllowed`).
 */
export function ClassifierDialog({
  orgId,
  mode,
  classifier,
  archiveAllowed,
  onClose,
}: {
  orgId: string;
  mode: ClassifierMode;
  classifier: Classifier | null;
  archiveAllowed: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState(classifier?.name ?? '');
  const [description, setDescription] = useState(classifier?.description ?? '');
  const [query, setQuery] = useState(classifier?.query ?? '');
  const [attributes, setAttributes] = useState<Attribute[]>(() =>
    Object.entries(classifier?.metadata ?? {}).map(([key, value]) => attribute(key, value)),
  );
  const [options, setOptions] = useState<Options>(
    () =>
      Object.fromEntries(
        CLASSIFIER_OPTIONS.map((option) => [option, classifier?.[option] ?? false]),
      ) as Options,
  );
  const [submitted, setSubmitted] = useState(false);
  const [nameTaken, setNameTaken] = useState(false);
  const [queryError, setQueryError] = useState<string | null>(null);
  const [metadataError, setMetadataError] = useState<{ key: string | null; text: string } | null>(null);

  const save = useMutation({
    mutationFn: () =>
      apiFetch(classifiersPath(orgId, mode, classifier?.id), {
        method: classifier ? 'PUT' : 'POST',
        body: {
          name: name.trim(),
          description: description.trim(),
          query: query.trim(),
          metadata: Object.fromEntries(attributes.map((entry) => [entry.key.trim(), entry.value])),
          ...options,
          acceleratedArchive: archiveAllowed && options.acceleratedArchive,
        },
        schema: classifierSchema,
      }),
    onSuccess: async () => {
      notifyMessage(classifier ? 'classifiers.saved' : 'classifiers.created');
      onClose();
      await queryClient.invalidateQueries({ queryKey: classifiersKey(orgId, mode) });
    },
    onError: (error) => {
      const apiError = error instanceof ApiRequestError ? error.error : null;
      if (apiError?.key === 'CLASSIFIER_NAME_TAKEN') setNameTaken(true);
      else if (apiError?.key === 'CLASSIFIER_INVALID_QUERY')
        setQueryError(t(apiError.key, apiError.params ?? {}));
      else if (apiError && METADATA_ERRORS.has(apiError.key)) {
        const key = apiError.params?.key;
        setMetadataError({
          key: typeof key === 'string' ? key : null,
          text: t(apiError.key, apiError.params ?? {}),
        });
      } else notifyError(error, 'classifiers.saveFailed');
    },
    meta: { notifyError: false },
  });

  const keyError = (entry: Attribute): string | undefined => {
    const key = entry.key.trim();
    if (key === '') return submitted ? t('ERROR_REQUIRED') : undefined;
    if (!CLASSIFIER_METADATA_KEY_PATTERN.test(key) || key.length > CLASSIFIER_METADATA_KEY_MAX_LENGTH) {
      return t('CLASSIFIER_INVALID_METADATA_KEY', { key, maxLength: CLASSIFIER_METADATA_KEY_MAX_LENGTH });
    }
    if (attributes.some((other) => other.row < entry.row && other.key.trim() === key)) {
      return t('classifiers.duplicateKey', { key });
    }
    if (metadataError?.key === key) return metadataError.text;
    return undefined;
  };

  const trimmedName = name.trim();
  const trimmedQuery = query.trim();
  const nameError = nameTaken
    ? t('CLASSIFIER_NAME_TAKEN', { name: trimmedName })
    : submitted && trimmedName === ''
      ? t('ERROR_REQUIRED')
      : undefined;
  const shownQueryError = queryError ?? (submitted && trimmedQuery === '' ? t('ERROR_REQUIRED') : undefined);
  const generalMetadataError =
    metadataError && !attributes.some((entry) => entry.key.trim() === metadataError.key)
      ? metadataError.text
      : null;

  const changeAttribute = (row: number, change: Partial<Attribute>) => {
    setMetadataError(null);
    setAttributes((current) => current.map((entry) => (entry.row === row ? { ...entry, ...change } : entry)));
  };

  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={classifier ? t('classifiers.editTitle') : t('classifiers.newTitle')}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
          if (trimmedName === '' || trimmedQuery === '') return;
          if (attributes.some((entry) => entry.key.trim() === '' || keyError(entry))) return;
          const validation = validateQuery(trimmedQuery);
          if (!validation.valid) {
            setQueryError(
              t('CLASSIFIER_INVALID_QUERY', { position: validation.position, message: validation.message }),
            );
            return;
          }
          save.mutate();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('classifiers.name')}
            required
            data-autofocus
            maxLength={CLASSIFIER_NAME_MAX_LENGTH}
            value={name}
            onChange={(event) => {
              setNameTaken(false);
              setName(event.currentTarget.value);
            }}
            error={nameError}
          />
          <Textarea
            label={t('classifiers.description')}
            autosize
            minRows={2}
            maxLength={CLASSIFIER_DESCRIPTION_MAX_LENGTH}
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
          />
          <Textarea
            label={t('classifiers.query')}
            description={t('classifiers.queryHint')}
            required
            autosize
            minRows={2}
            ff="monospace"
            maxLength={CLASSIFIER_QUERY_MAX_LENGTH}
            value={query}
            onChange={(event) => {
              setQueryError(null);
              setQuery(event.currentTarget.value);
            }}
            error={shownQueryError}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('classifiers.metadata')}
            </Text>
            <Text size="xs" c="dimmed">
              {t('classifiers.metadataHint')}
            </Text>
            {attributes.map((entry, index) => (
              <Group key={entry.row} align="flex-start" gap="xs" wrap="nowrap">
                <TextInput
                  label={t('classifiers.metadataKey', { number: index + 1 })}
                  ff="monospace"
                  flex={1}
                  maxLength={CLASSIFIER_METADATA_KEY_MAX_LENGTH}
                  value={entry.key}
                  onChange={(event) => changeAttribute(entry.row, { key: event.currentTarget.value })}
                  error={keyError(entry)}
                />
                <TextInput
                  label={t('classifiers.metadataValue', { number: index + 1 })}
                  flex={1}
                  maxLength={CLASSIFIER_METADATA_VALUE_MAX_LENGTH}
                  value={entry.value}
                  onChange={(event) => changeAttribute(entry.row, { value: event.currentTarget.value })}
                />
                <ActionIcon
                  variant="subtle"
                  color="red"
                  mt={26}
                  aria-label={t('classifiers.removeAttribute', { number: index + 1 })}
                  onClick={() => {
                    setMetadataError(null);
                    setAttributes((current) => current.filter((other) => other.row !== entry.row));
                  }}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            ))}
            {generalMetadataError && (
              <Text size="sm" c="red">
                {generalMetadataError}
              </Text>
            )}
            <Group>
              <Button
                size="compact-sm"
                variant="subtle"
                leftSection={<IconPlus size={14} />}
                disabled={attributes.length >= CLASSIFIER_MAX_METADATA}
                onClick={() => setAttributes((current) => [...current, attribute()])}
              >
                {t('classifiers.addAttribute')}
              </Button>
            </Group>
          </Stack>
          <Stack gap="xs">
            {CLASSIFIER_OPTIONS.filter((option) => option !== 'acceleratedArchive' || archiveAllowed).map(
              (option) => (
                <Checkbox
                  key={option}
                  label={t(`classifiers.options.${option}`)}
                  checked={options[option]}
                  onChange={(event) => {
                    const checked = event.currentTarget.checked;
                    setOptions((current) => ({ ...current, [option]: checked }));
                  }}
                />
              ),
            )}
          </Stack>
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
