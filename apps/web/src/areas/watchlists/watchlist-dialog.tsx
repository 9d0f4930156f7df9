import { Autocomplete, Button, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  EVENT_FIELD_NAME_MAX_LENGTH,
  WATCHLIST_DESCRIPTION_MAX_LENGTH,
  WATCHLIST_NAME_MAX_LENGTH,
  watchlistSchema,
  type Watchlist,
  type WatchlistDomain,
} from '@vigil/contracts';
import { DEFAULT_EVENT_SCHEMA } from '@vigil/query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, apiFetch } from '../../lib/api';
import { notifyError, notifyMessage } from '../../lib/notify';
import { linesOf, watchlistPath, watchlistsKey } from './watchlists';

/** The event columns every organisation has, offered for the field; free fields may be typed. */
const KNOWN_FIELDS = Object.keys(DEFAULT_EVENT_SCHEMA.columns).sort();

/** The keys the server answers beside a field of this form. */
const FIELD_ERRORS: Record<string, 'name' | 'field' | 'items'> = {
  WATCHLIST_NAME_TAKEN: 'name',
  WATCHLIST_FIELD_INVALID: 'field',
  WATCHLIST_ITEMS_REQUIRED: 'items',
  WATCHLIST_TOO_MANY_ITEMS: 'items',
};

interface Values {
  name: string;
  description: string;
  field: string;
  items: string;
}

/** Creates a watchlist of `domain` with its first values, or changes the name, description and field. */
export function WatchlistDialog({
  orgId,
  domain,
  watchlist,
  onClose,
}: {
  orgId: string;
  domain: WatchlistDomain;
  watchlist?: Watchlist | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Values>({
    name: watchlist?.name ?? '',
    description: watchlist?.description ?? '',
    field: watchlist?.field ?? '',
    items: '',
  });
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Partial<Record<keyof Values, string>>>({});
  const save = useMutation({
    mutationFn: (input: Values) =>
      apiFetch(watchlistPath(orgId, watchlist?.id), {
        method: watchlist ? 'PUT' : 'POST',
        body: {
          name: input.name.trim(),
          description: input.description.trim(),
          field: input.field.trim(),
          ...(!watchlist && { domain, items: linesOf(input.items) }),
        },
        schema: watchlistSchema,
      }),
    onSuccess: async () => {
      notifyMessage(watchlist ? 'watchlists.saved' : 'watchlists.created');
      onClose();
      await queryClient.invalidateQueries({ queryKey: watchlistsKey(orgId) });
    },
    onError: (error) => {
      const target = error instanceof ApiRequestError ? FIELD_ERRORS[error.error.key] : undefined;
      if (target && error instanceof ApiRequestError) {
        setServerErrors({ [target]: t(error.error.key, error.error.params ?? {}) });
      } else notifyError(error, 'watchlists.saveFailed');
    },
    meta: { notifyError: false },
  });

  const update = (key: keyof Values) => (next: string) => {
    setServerErrors((current) => ({ ...current, [key]: undefined }));
    setValues((current) => ({ ...current, [key]: next }));
  };
  const required = (key: keyof Values) =>
    serverErrors[key] ?? (submitted && values[key].trim() === '' ? t('ERROR_REQUIRED') : undefined);
  const itemsError =
    serverErrors.items ??
    (submitted && linesOf(values.items).length === 0 ? t('WATCHLIST_ITEMS_REQUIRED') : undefined);

  return (
    <Modal opened onClose={onClose} title={watchlist ? t('watchlists.editTitle') : t('watchlists.newTitle')}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
          const missing =
            values.name.trim() === '' ||
            values.field.trim() === '' ||
            (!watchlist && linesOf(values.items).length === 0);
          if (!missing) save.mutate(values);
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('watchlists.name')}
            required
            data-autofocus
            maxLength={WATCHLIST_NAME_MAX_LENGTH}
            value={values.name}
            onChange={(event) => update('name')(event.currentTarget.value)}
            error={required('name')}
          />
          <Textarea
            label={t('watchlists.description')}
            autosize
            minRows={2}
            maxLength={WATCHLIST_DESCRIPTION_MAX_LENGTH}
            value={values.description}
            onChange={(event) => update('description')(event.currentTarget.value)}
          />
          <Autocomplete
            label={t('watchlists.field')}
            description={t('watchlists.fieldHint')}
            required
            data={KNOWN_FIELDS}
            maxLength={EVENT_FIELD_NAME_MAX_LENGTH}
            value={values.field}
            onChange={update('field')}
            error={required('field')}
          />
          {!watchlist && (
            <Textarea
              label={t('watchlists.items')}
              description={t('watchlists.itemsHint')}
              required
              autosize
              minRows={4}
              maxRows={12}
              ff="monospace"
              value={values.items}
              onChange={(event) => update('items')(event.currentTarget.value)}
              error={itemsError}
            />
          )}
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
