import { Button, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  SAVED_QUERY_DESCRIPTION_MAX_LENGTH,
  SAVED_QUERY_MAX_LENGTH,
  SAVED_QUERY_NAME_MAX_LENGTH,
  savedQuerySchema,
  type SavedQuery,
} from '@vigil/contracts';
import { validateQuery } from '@vigil/query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, apiFetch } from '../../lib/api';
import { notifyError, notifyMessage } from '../../lib/notify';
import { savedQueriesKey, savedQueryPath } from './saved-queries';

interface Values {
  name: string;
  description: string;
  query: string;
  primaryField: string;
}

/**
 * Saves a new query (prefilled with `initialQuery`, e.g. the search page's) or changes `savedQuery`.
 * A taken name and a query the server refuses show beside their fields.
 */
export function SavedQueryDialog({
  orgId,
  savedQuery,
  initialQuery = '',
  onClose,
}: {
  orgId: string;
  savedQuery?: SavedQuery | null;
  initialQuery?: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Values>({
    name: savedQuery?.name ?? '',
    description: savedQuery?.description ?? '',
    query: savedQuery?.query ?? initialQuery,
    primaryField: savedQuery?.primaryField ?? '',
  });
  const [submitted, setSubmitted] = useState(false);
  const [nameTaken, setNameTaken] = useState(false);
  const [queryError, setQueryError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (input: Values) =>
      apiFetch(savedQueryPath(orgId, savedQuery?.id), {
        method: savedQuery ? 'PUT' : 'POST',
        body: {
          name: input.name.trim(),
          description: input.description.trim(),
          query: input.query.trim(),
          aggregation: savedQuery?.aggregation ?? null,
          primaryField: input.primaryField.trim() || null,
        },
        schema: savedQuerySchema,
      }),
    onSuccess: async () => {
      notifyMessage(savedQuery ? 'events.saved.saved' : 'events.saved.created');
      onClose();
      await queryClient.invalidateQueries({ queryKey: savedQueriesKey(orgId) });
    },
    onError: (error) => {
      const key = error instanceof ApiRequestError ? error.error.key : null;
      if (key === 'SAVED_QUERY_NAME_TAKEN') setNameTaken(true);
      else if (key === 'SAVED_QUERY_INVALID_QUERY' && error instanceof ApiRequestError) {
        setQueryError(t('SAVED_QUERY_INVALID_QUERY', error.error.params ?? {}));
      } else notifyError(error, 'events.saved.saveFailed');
    },
    meta: { notifyError: false },
  });

  const name = values.name.trim();
  const query = values.query.trim();
  const nameError = nameTaken
    ? t('SAVED_QUERY_NAME_TAKEN', { name })
    : submitted && name === ''
      ? t('ERROR_REQUIRED')
      : undefined;
  const shownQueryError = queryError ?? (submitted && query === '' ? t('ERROR_REQUIRED') : undefined);

  return (
    <Modal
      opened
      onClose={onClose}
      title={savedQuery ? t('events.saved.editTitle') : t('events.saved.newTitle')}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
          if (name === '' || query === '') return;
          const validation = validateQuery(query);
          if (!validation.valid) {
            setQueryError(
              t('SAVED_QUERY_INVALID_QUERY', { position: validation.position, message: validation.message }),
            );
            return;
          }
          save.mutate(values);
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('events.saved.name')}
            required
            data-autofocus
            maxLength={SAVED_QUERY_NAME_MAX_LENGTH}
            value={values.name}
            onChange={(event) => {
              const next = event.currentTarget.value;
              setNameTaken(false);
              setValues((current) => ({ ...current, name: next }));
            }}
            error={nameError}
          />
          <Textarea
            label={t('events.saved.description')}
            autosize
            minRows={2}
            maxLength={SAVED_QUERY_DESCRIPTION_MAX_LENGTH}
            value={values.description}
            onChange={(event) => {
              const next = event.currentTarget.value;
              setValues((current) => ({ ...current, description: next }));
            }}
          />
          <Textarea
            label={t('events.saved.query')}
            required
            autosize
            minRows={2}
            ff="monospace"
            maxLength={SAVED_QUERY_MAX_LENGTH}
            value={values.query}
            onChange={(event) => {
              const next = event.currentTarget.value;
              setQueryError(null);
              setValues((current) => ({ ...current, query: next }));
            }}
            error={shownQueryError}
          />
          <TextInput
            label={t('events.saved.primaryField')}
            description={t('events.saved.primaryFieldHint')}
            value={values.primaryField}
            onChange={(event) => {
              const next = event.currentTarget.value;
              setValues((current) => ({ ...current, primaryField: next }));
            }}
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
