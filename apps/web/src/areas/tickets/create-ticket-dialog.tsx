import { Button, Group, Modal, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import {
  TICKET_TEXT_MAX_LENGTH,
  TICKET_TITLE_MAX_LENGTH,
  ticketDetailSchema,
  type TicketKind,
} from '@vigil/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { isoOf } from '../../lib/local-time';
import { orgPath } from '../assets/queries';
import { useTicketPeople } from './ticket-badges';
import { ticketsKey, ticketTemplatesQuery } from './tickets';

/** Creates an incident or a task (a subtask with `parentSlug`) and opens it. */
export function CreateTicketDialog({
  orgId,
  kind,
  parentSlug,
  onClose,
}: {
  orgId: string;
  kind: TicketKind;
  parentSlug?: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const people = useTicketPeople(orgId);
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [ownerId, setOwnerId] = useState<string | null>(null);
  const [dueDate, setDueDate] = useState('');
  const [slaDate, setSlaDate] = useState('');
  const [checked, setChecked] = useState(false);
  const [templateId, setTemplateId] = useState<string | null>(null);
  const templates = useQuery({ ...ticketTemplatesQuery(orgId), enabled: !parentSlug });
  const chooseTemplate = (id: string | null) => {
    setTemplateId(id);
    const template = templates.data?.find((entry) => entry.id === id);
    if (template) {
      setTitle(template.title);
      setDescription(template.description);
    }
  };
  const create = useMutation({
    mutationFn: () =>
      apiFetch(`${orgPath(orgId)}/${kind}`, {
        method: 'POST',
        body: {
          title: title.trim(),
          description,
          ownerId,
          dueDate: isoOf(dueDate),
          slaDate: isoOf(slaDate),
          ...(parentSlug && { parentSlug }),
          ...(templateId && { templateId }),
        },
        schema: ticketDetailSchema,
      }),
    onSuccess: async (ticket) => {
      await queryClient.invalidateQueries({ queryKey: ticketsKey(orgId) });
      onClose();
      await navigate({
        to: kind === 'incident' ? '/tickets/incident/$slug' : '/tickets/task/$slug',
        params: { slug: ticket.slug },
      });
    },
    meta: { errorKey: 'tickets.saveFailed' },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (title.trim()) create.mutate();
  };
  return (
    <Modal
      opened
      onClose={onClose}
      title={parentSlug ? t('tickets.newSubtask', { slug: parentSlug }) : t(`tickets.${kind}.new`)}
      centered
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {(templates.data?.length ?? 0) > 0 && (
            <Select
              label={t('tickets.template')}
              description={t('tickets.templateHint')}
              data={(templates.data ?? []).map((template) => ({ value: template.id, label: template.name }))}
              value={templateId}
              onChange={chooseTemplate}
              clearable
              searchable
            />
          )}
          <TextInput
            label={t('tickets.titleField')}
            required
            value={title}
            maxLength={TICKET_TITLE_MAX_LENGTH}
            onChange={(event) => setTitle(event.currentTarget.value)}
            error={checked && !title.trim() ? t('tickets.titleRequired') : undefined}
          />
          <Textarea
            label={t('tickets.description')}
            value={description}
            maxLength={TICKET_TEXT_MAX_LENGTH}
            onChange={(event) => setDescription(event.currentTarget.value)}
            autosize
            minRows={3}
          />
          <Select
            label={t('tickets.owner')}
            data={people}
            value={ownerId}
            onChange={setOwnerId}
            clearable
            searchable
          />
          <TextInput
            type="datetime-local"
            label={t('tickets.dueDate')}
            value={dueDate}
            onChange={(event) => setDueDate(event.currentTarget.value)}
          />
          <TextInput
            type="datetime-local"
            label={t('tickets.slaDate')}
            value={slaDate}
            onChange={(event) => setSlaDate(event.currentTarget.value)}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('tickets.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
