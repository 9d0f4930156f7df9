import { ActionIcon, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowRight, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  CUSTOM_PARSER_COLUMN_TARGETS,
  CUSTOM_PARSER_DATA_SOURCE_MAX_LENGTH,
  CUSTOM_PARSER_MAX_MAPPINGS,
  EVENT_FIELD_NAME_MAX_LENGTH,
  customParserSchema,
  mappingProblems,
  type CustomParser,
  type CustomParserMapping,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, apiFetch } from '../../lib/api';
import { errorMessage, notifyError, notifyMessage } from '../../lib/notify';
import { customParserPath, customParsersKey } from './custom-parsers';

interface Row extends CustomParserMapping {
  /** Stable React key: rows are added and removed anywhere. */
  key: number;
}

/** A server refusal shown beside its field: `dataSource` or `mappings.<index>.from|to`. */
type ServerFieldError = { field: string; message: string } | null;

let rowKeys = 0;
const newRow = (mapping: CustomParserMapping = { from: '', to: '' }): Row => ({ ...mapping, key: rowKeys++ });

const trimmed = (rows: readonly Row[]) => rows.map((row) => ({ from: row.from.trim(), to: row.to.trim() }));

/**
 * Creates a parser or changes `parser`: the data source and its mapping rows (from-field → to-field,
 * added and removed freely up to CUSTOM_PARSER_MAX_MAPPINGS). The spec's field rules are checked as
 * the user types, with the server's texts; an empty field is flagged once the form is submitted.
 */
export function CustomParserDialog({
  orgId,
  parser,
  onClose,
}: {
  orgId: string;
  parser?: CustomParser | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [dataSource, setDataSource] = useState(parser?.dataSource ?? '');
  const [rows, setRows] = useState<Row[]>(() =>
    parser ? parser.mappings.map((mapping) => newRow(mapping)) : [newRow()],
  );
  const [submitted, setSubmitted] = useState(false);
  const [serverError, setServerError] = useState<ServerFieldError>(null);

  const save = useMutation({
    mutationFn: (input: { dataSource: string; mappings: CustomParserMapping[] }) =>
      apiFetch(customParserPath(orgId, parser?.id), {
        method: parser ? 'PUT' : 'POST',
        body: input,
        schema: customParserSchema,
      }),
    onSuccess: async () => {
      notifyMessage(parser ? 'settings.customParsers.saved' : 'settings.customParsers.created');
      onClose();
      await queryClient.invalidateQueries({ queryKey: customParsersKey(orgId) });
    },
    onError: (error) => {
      const field = error instanceof ApiRequestError ? error.error.field : undefined;
      if (
        error instanceof ApiRequestError &&
        field &&
        (field === 'dataSource' || field.startsWith('mappings.'))
      ) {
        setServerError({ field, message: errorMessage(error.error, t) });
      } else notifyError(error, 'settings.customParsers.saveFailed');
    },
    meta: { notifyError: false },
  });

  const mappings = trimmed(rows);
  const problems = mappingProblems(mappings);
  const source = dataSource.trim();
  const atLimit = rows.length >= CUSTOM_PARSER_MAX_MAPPINGS;

  const serverMessage = (field: string) => (serverError?.field === field ? serverError.message : undefined);
  const fieldError = (index: number, side: 'from' | 'to') => {
    const server = serverMessage(`mappings.${index}.${side}`);
    if (server) return server;
    const problem = problems.find((item) => item.index === index && item.side === side);
    if (!problem) return undefined;
    // An empty field is only pointed out once the user tries to save.
    if (problem.key === 'CUSTOM_PARSER_FIELD_REQUIRED' && !submitted) return undefined;
    return t(problem.key, { name: mappings[index]![side] });
  };
  const dataSourceError =
    serverMessage('dataSource') ??
    (submitted && source === '' ? t('CUSTOM_PARSER_DATA_SOURCE_REQUIRED') : undefined);

  const updateRow = (key: number, side: 'from' | 'to', value: string) => {
    setServerError(null);
    setRows((current) => current.map((row) => (row.key === key ? { ...row, [side]: value } : row)));
  };

  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={parser ? t('settings.customParsers.editTitle') : t('settings.customParsers.newTitle')}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
          if (source === '' || rows.length === 0 || problems.length > 0) return;
          save.mutate({ dataSource: source, mappings });
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('settings.customParsers.dataSource')}
            description={t('settings.customParsers.dataSourceHint')}
            required
            data-autofocus
            maxLength={CUSTOM_PARSER_DATA_SOURCE_MAX_LENGTH}
            value={dataSource}
            onChange={(event) => {
              const next = event.currentTarget.value;
              setServerError(null);
              setDataSource(next);
            }}
            error={dataSourceError}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('settings.customParsers.mappings')}
            </Text>
            <Text size="xs" c="dimmed">
              {t('settings.customParsers.mappingsHint', { columns: CUSTOM_PARSER_COLUMN_TARGETS.join(', ') })}
            </Text>
          </Stack>
          {rows.map((row, index) => (
            <Group key={row.key} gap="xs" align="flex-start" wrap="nowrap">
              <TextInput
                flex={1}
                aria-label={t('settings.customParsers.fromNamed', { row: index + 1 })}
                placeholder={t('settings.customParsers.fromPlaceholder')}
                maxLength={EVENT_FIELD_NAME_MAX_LENGTH}
                value={row.from}
                onChange={(event) => updateRow(row.key, 'from', event.currentTarget.value)}
                error={fieldError(index, 'from')}
              />
              <IconArrowRight size={18} style={{ marginTop: 9, flexShrink: 0 }} aria-hidden />
              <TextInput
                flex={1}
                aria-label={t('settings.customParsers.toNamed', { row: index + 1 })}
                placeholder={t('settings.customParsers.toPlaceholder')}
                maxLength={EVENT_FIELD_NAME_MAX_LENGTH}
                value={row.to}
                onChange={(event) => updateRow(row.key, 'to', event.currentTarget.value)}
                error={fieldError(index, 'to')}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                mt={4}
                aria-label={t('settings.customParsers.removeMapping', { row: index + 1 })}
                onClick={() => {
                  setServerError(null);
                  setRows((current) => current.filter((item) => item.key !== row.key));
                }}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
          {submitted && rows.length === 0 && (
            <Text size="sm" c="red" role="alert">
              {t('CUSTOM_PARSER_MAPPING_REQUIRED')}
            </Text>
          )}
          <Group gap="sm">
            <Button
              variant="light"
              leftSection={<IconPlus size={16} />}
              disabled={atLimit}
              onClick={() => setRows((current) => [...current, newRow()])}
            >
              {t('settings.customParsers.addMapping')}
            </Button>
            {atLimit && (
              <Text size="sm" c="dimmed">
                {t('CUSTOM_PARSER_TOO_MANY_MAPPINGS', { max: CUSTOM_PARSER_MAX_MAPPINGS })}
              </Text>
            )}
          </Group>
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
