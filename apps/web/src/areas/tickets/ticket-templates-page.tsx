import {
  ActionIcon,
  Button,
  EmptyState,
  Group,
  Modal,
  MultiSelect,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { IconPlus, IconTemplate, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  TICKET_TEMPLATE_MAX_TASKS,
  TICKET_TEXT_MAX_LENGTH,
  TICKET_TITLE_MAX_LENGTH,
  ticketTemplateSchema,
  type TicketTemplate,
} from '@vigil/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import { QueryStates } from '../../shell/query-status';
import { orgPath } from '../assets/queries';
import { useTicketPeople } from './ticket-badges';
import { ticketsKey, ticketTemplatesQuery } from './tickets';

/** Ticket templates (/ticket-templates, TRAC_USER): predefined title, description, tasks and watchers. */
export function TicketTemplatesPage() {
  const { t } = useTranslation();
  const allowed = useHasPermission('TRAC_USER');
  return (
    <GatedPage title={t('tickets.templates.title')} allowed={allowed} maw={1200}>
      <TemplateList />
    </GatedPage>
  );
}

function TemplateList() {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const queryClient = useQueryClient();
  const templates = useQuery(ticketTemplatesQuery(orgId));
  const [editing, setEditing] = useState<TicketTemplate | 'new' | null>(null);
  const [deleting, setDeleting] = useState<TicketTemplate | null>(null);
  const remove = useMutation({
    mutationFn: (template: TicketTemplate) =>
      apiFetch(`${orgPath(orgId)}/ticket-template/${template.id}`, { method: 'DELETE' }),
    onSuccess: async () => {
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: ticketsKey(orgId) });
    },
    meta: { errorKey: 'tickets.templates.deleteFailed' },
  });
  return (
    <Stack gap="md">
      <Group justify="flex-end">
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
          {t('tickets.templates.new')}
        </Button>
      </Group>
      <QueryStates
        query={templates}
        loadingLabel={t('tickets.templates.loading')}
        failedTitle={t('tickets.templates.loadFailed')}
      >
        {(items) =>
          items.length === 0 ? (
            <EmptyState
              icon={<IconTemplate size={32} stroke={1.5} />}
              withIndicatorBackground
              title={t('tickets.templates.emptyTitle')}
              description={t('tickets.templates.emptyMessage')}
            />
          ) : (
            <Table striped aria-label={t('tickets.templates.title')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('tickets.templates.name')}</Table.Th>
                  <Table.Th>{t('tickets.titleField')}</Table.Th>
                  <Table.Th>{t('tickets.templates.tasks')}</Table.Th>
                  <Table.Th>{t('tickets.watchers')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((template) => (
                  <Table.Tr key={template.id}>
                    <Table.Td>{template.name}</Table.Td>
                    <Table.Td>{template.title}</Table.Td>
                    <Table.Td>{template.tasks.map((task) => task.title).join(', ') || '—'}</Table.Td>
                    <Table.Td>{template.watchers.map((person) => person.name).join(', ') || '—'}</Table.Td>
                    <Table.Td>
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        <Button
                          size="compact-xs"
                          variant="subtle"
                          aria-label={t('tickets.templates.editNamed', { name: template.name })}
                          onClick={() => setEditing(template)}
                        >
                          {t('tickets.templates.edit')}
                        </Button>
                        <Button
                          size="compact-xs"
                          variant="subtle"
                          color="red"
                          aria-label={t('tickets.templates.deleteNamed', { name: template.name })}
                          onClick={() => setDeleting(template)}
                        >
                          {t('tickets.fileDelete')}
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )
        }
      </QueryStates>
      {editing && (
        <TemplateDialog
          orgId={orgId}
          template={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('tickets.templates.deleteTitle')}
        message={t('tickets.templates.deleteMessage', { name: deleting?.name ?? '' })}
        confirmLabel={t('tickets.fileDelete')}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}

function TemplateDialog({
  orgId,
  template,
  onClose,
}: {
  orgId: string;
  template: TicketTemplate | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const people = useTicketPeople(orgId);
  const [name, setName] = useState(template?.name ?? '');
  const [title, setTitle] = useState(template?.title ?? '');
  const [description, setDescription] = useState(template?.description ?? '');
  const [tasks, setTasks] = useState(template?.tasks ?? []);
  const [watcherIds, setWatcherIds] = useState(template?.watchers.map((person) => person.id) ?? []);
  const [checked, setChecked] = useState(false);
  const save = useMutation({
    mutationFn: () =>
      apiFetch(
        template ? `${orgPath(orgId)}/ticket-template/${template.id}` : `${orgPath(orgId)}/ticket-template`,
        {
          method: template ? 'PUT' : 'POST',
          body: {
            name: name.trim(),
            title: title.trim(),
            description,
            tasks: tasks.filter((task) => task.title.trim()),
            watcherIds,
          },
          schema: ticketTemplateSchema,
        },
      ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ticketsKey(orgId) });
      onClose();
    },
    meta: { errorKey: 'tickets.templates.saveFailed' },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (name.trim() && title.trim()) save.mutate();
  };
  const setTask = (index: number, values: Partial<TicketTemplate['tasks'][number]>) =>
    setTasks((current) => current.map((task, at) => (at === index ? { ...task, ...values } : task)));
  return (
    <Modal
      opened
      onClose={onClose}
      title={template ? t('tickets.templates.editTitle') : t('tickets.templates.new')}
      size="lg"
      centered
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('tickets.templates.name')}
            required
            maxLength={100}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={checked && !name.trim() ? t('tickets.templates.nameRequired') : undefined}
          />
          <TextInput
            label={t('tickets.titleField')}
            required
            maxLength={TICKET_TITLE_MAX_LENGTH}
            value={title}
            onChange={(event) => setTitle(event.currentTarget.value)}
            error={checked && !title.trim() ? t('tickets.titleRequired') : undefined}
          />
          <Textarea
            label={t('tickets.description')}
            maxLength={TICKET_TEXT_MAX_LENGTH}
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
            autosize
            minRows={2}
          />
          <MultiSelect
            label={t('tickets.watchers')}
            data={people}
            value={watcherIds}
            onChange={setWatcherIds}
            searchable
            clearable
          />
          <Text size="sm" fw={500}>
            {t('tickets.templates.tasks')}
          </Text>
          {tasks.map((task, index) => (
            <Group key={index} align="flex-end" wrap="nowrap">
              <TextInput
                label={t('tickets.templates.taskTitle', { number: index + 1 })}
                maxLength={TICKET_TITLE_MAX_LENGTH}
                value={task.title}
                onChange={(event) => setTask(index, { title: event.currentTarget.value })}
                style={{ flex: 1 }}
              />
              <TextInput
                label={t('tickets.templates.taskDescription', { number: index + 1 })}
                maxLength={TICKET_TEXT_MAX_LENGTH}
                value={task.description}
                onChange={(event) => setTask(index, { description: event.currentTarget.value })}
                style={{ flex: 2 }}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                aria-label={t('tickets.templates.removeTask', { number: index + 1 })}
                onClick={() => setTasks((current) => current.filter((_, at) => at !== index))}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
          <Group>
            <Button
              size="xs"
              variant="default"
              disabled={tasks.length >= TICKET_TEMPLATE_MAX_TASKS}
              onClick={() => setTasks((current) => [...current, { title: '', description: '' }])}
            >
              {t('tickets.templates.addTask')}
            </Button>
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
