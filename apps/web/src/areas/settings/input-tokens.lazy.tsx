import {
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  EmptyState,
  Group,
  Modal,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy, IconKey } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createLazyRoute } from '@tanstack/react-router';
import {
  DEFAULT_PAGE_SIZE,
  TOKEN_CLOUD_KEY_ID_MAX_LENGTH,
  TOKEN_CLOUD_SECRET_MAX_LENGTH,
  TOKEN_DESCRIPTION_MAX_LENGTH,
  TOKEN_EXPIRY_CHOICES_DAYS,
  TOKEN_QUEUE_NAME_MAX_LENGTH,
  createdInputTokenSchema,
  inputTokenSchema,
  type CreatedInputToken,
  type InputToken,
  type TokenKind,
  type TokenState,
} from '@vigil/contracts';
import { useState, type ChangeEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import { ListPager } from '../../shell/list-pager';
import { ListStates, LoadFailed, LoadingLine } from '../../shell/query-status';
import {
  createTokenPath,
  externalTokenPath,
  externalTokenQuery,
  revokeTokenPath,
  tokensKey,
  tokensQuery,
} from './token-queries';

export const Route = createLazyRoute('/settings/input-tokens')({
  component: InputTokensPage,
});

const STATE_COLORS: Record<TokenState, string> = { active: 'green', expired: 'gray', revoked: 'red' };
const TAB_KINDS = ['API', 'INSTALLER', 'EXTERNAL'] as const satisfies readonly TokenKind[];

/** Input tokens (spec 2): AUTH_TOKEN_VIEW to see them, AUTH_TOKEN_EDIT to create, revoke and replace. */
function InputTokensPage() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<TokenKind>('API');
  return (
    <GatedPage title={t('nav.tabs.inputTokens')} allowed={useHasPermission('AUTH_TOKEN_VIEW')} maw={1200}>
      <Tabs value={kind} onChange={(value) => value && setKind(value as TokenKind)} keepMounted={false}>
        <Tabs.List aria-label={t('settings.inputTokens.tabsLabel')}>
          {TAB_KINDS.map((tab) => (
            <Tabs.Tab key={tab} value={tab}>
              {t(`settings.inputTokens.kinds.${tab}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="API" pt="md">
          <TokenList kind="API" />
        </Tabs.Panel>
        <Tabs.Panel value="INSTALLER" pt="md">
          <TokenList kind="INSTALLER" />
        </Tabs.Panel>
        <Tabs.Panel value="EXTERNAL" pt="md">
          <ExternalToken />
        </Tabs.Panel>
      </Tabs>
    </GatedPage>
  );
}

function useDateTime() {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (value: string | null) => (value ? format.format(new Date(value)) : null);
}

function StateBadge({ state }: { state: TokenState }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATE_COLORS[state]} variant="light">
      {t(`settings.inputTokens.states.${state}`)}
    </Badge>
  );
}

/** The name a token goes by in buttons and dialogs: its description, or its public key. */
const tokenName = (token: InputToken) => token.description || token.key;

function useRevoke(orgId: string, onDone: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch(revokeTokenPath(orgId, id), { method: 'POST', schema: inputTokenSchema }),
    onSuccess: async () => {
      onDone();
      notifyMessage('settings.inputTokens.revoked');
      await queryClient.invalidateQueries({ queryKey: tokensKey(orgId) });
    },
    meta: { errorKey: 'settings.inputTokens.revokeFailed' },
  });
}

function TokenList({ kind }: { kind: 'API' | 'INSTALLER' }) {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canEdit = useHasPermission('AUTH_TOKEN_EDIT');
  const dateTime = useDateTime();
  const [pageNumber, setPageNumber] = useState(1);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedInputToken | null>(null);
  const [revoking, setRevoking] = useState<InputToken | null>(null);
  const tokens = useQuery(tokensQuery(orgId, { kind, pageNumber, pageSize: DEFAULT_PAGE_SIZE }));
  const revoke = useRevoke(orgId, () => setRevoking(null));

  return (
    <Stack gap="md">
      <Group justify="space-between" align="center">
        <Text size="sm" c="dimmed">
          {t(`settings.inputTokens.intro${kind}`)}
        </Text>
        {canEdit && (
          <Button leftSection={<IconKey size={16} />} onClick={() => setCreating(true)}>
            {t(`settings.inputTokens.create${kind}`)}
          </Button>
        )}
      </Group>
      <ListStates
        query={tokens}
        loadingLabel={t('settings.inputTokens.loading')}
        failedTitle={t('settings.inputTokens.loadFailed')}
        empty={
          <EmptyState
            icon={<IconKey size={32} stroke={1.5} />}
            withIndicatorBackground
            title={t('settings.inputTokens.emptyTitle')}
            description={t('settings.inputTokens.emptyMessage')}
          />
        }
      >
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={800}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('settings.inputTokens.description')}</Table.Th>
                    <Table.Th>{t('settings.inputTokens.key')}</Table.Th>
                    <Table.Th>{t('settings.inputTokens.state')}</Table.Th>
                    <Table.Th>{t('settings.inputTokens.created')}</Table.Th>
                    <Table.Th>{t('settings.inputTokens.expires')}</Table.Th>
                    <Table.Th>{t('settings.inputTokens.lastUsed')}</Table.Th>
                    {canEdit && (
                      <Table.Th>
                        <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
                      </Table.Th>
                    )}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((token) => (
                    <Table.Tr key={token.id}>
                      <Table.Td>
                        <Text size="sm" c={token.description ? undefined : 'dimmed'}>
                          {token.description || '—'}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Code>{token.key}</Code>
                      </Table.Td>
                      <Table.Td>
                        <StateBadge state={token.state} />
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{dateTime(token.createdOn)}</Text>
                        <Text size="xs" c="dimmed">
                          {token.createdByName ?? t('settings.inputTokens.unknownPerson')}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{dateTime(token.expiresAt) ?? t('settings.inputTokens.never')}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{dateTime(token.lastUsedAt) ?? t('settings.inputTokens.never')}</Text>
                      </Table.Td>
                      {canEdit && (
                        <Table.Td>
                          {token.state !== 'revoked' && (
                            <Button
                              size="compact-sm"
                              variant="subtle"
                              color="red"
                              aria-label={t('settings.inputTokens.revokeNamed', { name: tokenName(token) })}
                              onClick={() => setRevoking(token)}
                            >
                              {t('settings.inputTokens.revoke')}
                            </Button>
                          )}
                        </Table.Td>
                      )}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <ListPager
              page={pageNumber}
              pageSize={DEFAULT_PAGE_SIZE}
              total={data.total}
              onChange={setPageNumber}
              withRange={false}
            />
          </>
        )}
      </ListStates>
      {creating && (
        <CreateTokenForm
          orgId={orgId}
          kind={kind}
          onClose={() => setCreating(false)}
          onCreated={(token) => {
            setCreating(false);
            setCreated(token);
          }}
        />
      )}
      {created && <SecretDialog token={created} onClose={() => setCreated(null)} />}
      <ConfirmDialog
        opened={revoking !== null}
        title={t('settings.inputTokens.revokeTitle')}
        message={t('settings.inputTokens.revokeMessage', { name: revoking ? tokenName(revoking) : '' })}
        confirmLabel={t('settings.inputTokens.revoke')}
        loading={revoke.isPending}
        onConfirm={() => {
          if (revoking) revoke.mutate(revoking.id);
        }}
        onCancel={() => setRevoking(null)}
      />
    </Stack>
  );
}

const NEVER = 'never';

function ExpirySelect({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  return (
    <Select
      label={t('settings.inputTokens.expiry')}
      data={TOKEN_EXPIRY_CHOICES_DAYS.map((days) =>
        days === null
          ? { value: NEVER, label: t('settings.inputTokens.expiryNever') }
          : { value: String(days), label: t('settings.inputTokens.expiryDays', { count: days }) },
      )}
      value={value}
      allowDeselect={false}
      onChange={(choice) => {
        if (choice) onChange(choice);
      }}
    />
  );
}

/** The expiry a choice of the select stands for, counted from now. */
const expiryOf = (choice: string) =>
  choice === NEVER ? null : new Date(Date.now() + Number(choice) * 86_400_000).toISOString();

function CreateTokenForm({
  orgId,
  kind,
  onClose,
  onCreated,
}: {
  orgId: string;
  kind: 'API' | 'INSTALLER';
  onClose: () => void;
  onCreated: (token: CreatedInputToken) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [description, setDescription] = useState('');
  const [expiry, setExpiry] = useState<string>(NEVER);
  const create = useMutation({
    mutationFn: () =>
      apiFetch(createTokenPath(orgId, kind), {
        method: 'POST',
        body: { description: description.trim(), expiresAt: expiryOf(expiry) },
        schema: createdInputTokenSchema,
      }),
    onSuccess: async (token) => {
      onCreated(token);
      await queryClient.invalidateQueries({ queryKey: tokensKey(orgId) });
    },
    meta: { errorKey: 'settings.inputTokens.createFailed' },
  });
  return (
    <Modal opened onClose={onClose} title={t(`settings.inputTokens.createTitle${kind}`)}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('settings.inputTokens.description')}
            data-autofocus
            maxLength={TOKEN_DESCRIPTION_MAX_LENGTH}
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
          />
          <ExpirySelect value={expiry} onChange={setExpiry} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('settings.inputTokens.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The new token's `<key>.<secret>`, shown this once with a copy button. */
function SecretDialog({ token, onClose }: { token: CreatedInputToken; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('settings.inputTokens.secretTitle')}
      closeOnClickOutside={false}
      size="lg"
    >
      <Stack gap="md">
        <Alert color="yellow" icon={<IconAlertTriangle size={18} />}>
          {t('settings.inputTokens.secretWarning')}
        </Alert>
        <Stack gap={4}>
          <Text size="sm" fw={500} id="input-token-secret-label">
            {t('settings.inputTokens.secretLabel')}
          </Text>
          <Code block aria-labelledby="input-token-secret-label" style={{ wordBreak: 'break-all' }}>
            {token.secret}
          </Code>
        </Stack>
        <Group justify="flex-end" gap="sm">
          <CopyButton value={token.secret}>
            {({ copied, copy }) => (
              <Button
                variant="light"
                color={copied ? 'teal' : undefined}
                leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                onClick={copy}
              >
                {copied ? t('settings.inputTokens.copied') : t('settings.inputTokens.copy')}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onClose} data-autofocus>
            {t('settings.inputTokens.done')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

interface ExternalValues {
  description: string;
  queueName: string;
  cloudAccessKeyId: string;
  cloudSecret: string;
}

const EMPTY_EXTERNAL: ExternalValues = {
  description: '',
  queueName: '',
  cloudAccessKeyId: '',
  cloudSecret: '',
};

/** The organisation's one external data-vendor token, with the form that creates or replaces it. */
function ExternalToken() {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canEdit = useHasPermission('AUTH_TOKEN_EDIT');
  const dateTime = useDateTime();
  const queryClient = useQueryClient();
  const external = useQuery(externalTokenQuery(orgId));
  const [created, setCreated] = useState<CreatedInputToken | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [revoking, setRevoking] = useState(false);
  const remove = useMutation({
    mutationFn: () => apiFetch(externalTokenPath(orgId), { method: 'DELETE' }),
    onSuccess: async () => {
      setDeleting(false);
      notifyMessage('settings.inputTokens.external.deleted');
      await queryClient.invalidateQueries({ queryKey: tokensKey(orgId) });
    },
    meta: { errorKey: 'settings.inputTokens.external.deleteFailed' },
  });
  const revoke = useRevoke(orgId, () => setRevoking(false));

  if (external.isPending) return <LoadingLine label={t('settings.inputTokens.loading')} />;
  if (external.isError) {
    return (
      <LoadFailed
        title={t('settings.inputTokens.loadFailed')}
        error={external.error}
        onRetry={() => void external.refetch()}
      />
    );
  }
  const token = external.data.token;
  const detail = (label: string, value: ReactNode) => (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {value}
      </Text>
    </Stack>
  );

  return (
    <Stack gap="lg">
      <Text size="sm" c="dimmed">
        {t('settings.inputTokens.introEXTERNAL')}
      </Text>
      {token ? (
        <Stack gap="sm" aria-label={t('settings.inputTokens.external.current')} component="section">
          <Group justify="space-between">
            <Text fw={600}>{t('settings.inputTokens.external.current')}</Text>
            <StateBadge state={token.state} />
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            {detail(t('settings.inputTokens.key'), <Code>{token.key}</Code>)}
            {detail(t('settings.inputTokens.external.queueName'), token.queueName)}
            {detail(t('settings.inputTokens.external.cloudAccessKeyId'), token.cloudAccessKeyId)}
            {detail(t('settings.inputTokens.description'), token.description || '—')}
            {detail(
              t('settings.inputTokens.created'),
              `${dateTime(token.createdOn)} · ${token.createdByName ?? t('settings.inputTokens.unknownPerson')}`,
            )}
            {detail(
              t('settings.inputTokens.lastUsed'),
              dateTime(token.lastUsedAt) ?? t('settings.inputTokens.never'),
            )}
          </SimpleGrid>
          {canEdit && (
            <Group gap="sm">
              {token.state !== 'revoked' && (
                <Button
                  variant="default"
                  onClick={() => setRevoking(true)}
                  aria-label={t('settings.inputTokens.revokeNamed', { name: tokenName(token) })}
                >
                  {t('settings.inputTokens.revoke')}
                </Button>
              )}
              <Button color="red" variant="light" onClick={() => setDeleting(true)}>
                {t('settings.inputTokens.external.delete')}
              </Button>
            </Group>
          )}
        </Stack>
      ) : (
        <EmptyState
          icon={<IconKey size={32} stroke={1.5} />}
          withIndicatorBackground
          title={t('settings.inputTokens.emptyTitle')}
          description={t('settings.inputTokens.external.none')}
        />
      )}
      {canEdit && (
        <ExternalTokenForm
          key={token?.id ?? 'new'}
          orgId={orgId}
          replacing={token !== null}
          onCreated={setCreated}
        />
      )}
      {created && <SecretDialog token={created} onClose={() => setCreated(null)} />}
      <ConfirmDialog
        opened={deleting}
        title={t('settings.inputTokens.external.deleteTitle')}
        message={t('settings.inputTokens.external.deleteMessage', { name: token ? tokenName(token) : '' })}
        confirmLabel={t('settings.inputTokens.external.delete')}
        loading={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => setDeleting(false)}
      />
      <ConfirmDialog
        opened={revoking}
        title={t('settings.inputTokens.revokeTitle')}
        message={t('settings.inputTokens.revokeMessage', { name: token ? tokenName(token) : '' })}
        confirmLabel={t('settings.inputTokens.revoke')}
        loading={revoke.isPending}
        onConfirm={() => {
          if (token) revoke.mutate(token.id);
        }}
        onCancel={() => setRevoking(false)}
      />
    </Stack>
  );
}

function ExternalTokenForm({
  orgId,
  replacing,
  onCreated,
}: {
  orgId: string;
  replacing: boolean;
  onCreated: (token: CreatedInputToken) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<ExternalValues>(EMPTY_EXTERNAL);
  const [expiry, setExpiry] = useState<string>(NEVER);
  const [submitted, setSubmitted] = useState(false);
  const save = useMutation({
    mutationFn: () =>
      apiFetch(externalTokenPath(orgId), {
        method: 'PUT',
        body: {
          description: values.description.trim(),
          queueName: values.queueName.trim(),
          cloudAccessKeyId: values.cloudAccessKeyId.trim(),
          cloudSecret: values.cloudSecret,
          expiresAt: expiryOf(expiry),
        },
        schema: createdInputTokenSchema,
      }),
    onSuccess: async (token) => {
      setValues(EMPTY_EXTERNAL);
      setSubmitted(false);
      onCreated(token);
      await queryClient.invalidateQueries({ queryKey: tokensKey(orgId) });
    },
    meta: { errorKey: 'settings.inputTokens.external.saveFailed' },
  });
  const required = (value: string) => (submitted && value.trim() === '' ? t('ERROR_REQUIRED') : undefined);
  const set = (field: keyof ExternalValues) => (event: ChangeEvent<HTMLInputElement>) => {
    const value = event.currentTarget.value;
    setValues((current) => ({ ...current, [field]: value }));
  };
  const complete =
    values.queueName.trim() !== '' && values.cloudAccessKeyId.trim() !== '' && values.cloudSecret !== '';

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setSubmitted(true);
        if (complete) save.mutate();
      }}
    >
      <Stack gap="sm" maw={560}>
        <Text fw={600}>
          {replacing ? t('settings.inputTokens.external.replace') : t('settings.inputTokens.external.save')}
        </Text>
        {replacing && (
          <Text size="sm" c="dimmed">
            {t('settings.inputTokens.external.replaceHint')}
          </Text>
        )}
        <TextInput
          label={t('settings.inputTokens.external.queueName')}
          required
          maxLength={TOKEN_QUEUE_NAME_MAX_LENGTH}
          value={values.queueName}
          onChange={set('queueName')}
          error={required(values.queueName)}
        />
        <TextInput
          label={t('settings.inputTokens.external.cloudAccessKeyId')}
          required
          maxLength={TOKEN_CLOUD_KEY_ID_MAX_LENGTH}
          value={values.cloudAccessKeyId}
          onChange={set('cloudAccessKeyId')}
          error={required(values.cloudAccessKeyId)}
        />
        <PasswordInput
          label={t('settings.inputTokens.external.cloudSecret')}
          description={t('settings.inputTokens.external.cloudSecretHint')}
          required
          autoComplete="off"
          maxLength={TOKEN_CLOUD_SECRET_MAX_LENGTH}
          value={values.cloudSecret}
          onChange={set('cloudSecret')}
          error={submitted && values.cloudSecret === '' ? t('ERROR_REQUIRED') : undefined}
        />
        <TextInput
          label={t('settings.inputTokens.description')}
          maxLength={TOKEN_DESCRIPTION_MAX_LENGTH}
          value={values.description}
          onChange={set('description')}
        />
        <ExpirySelect value={expiry} onChange={setExpiry} />
        <Group>
          <Button type="submit" loading={save.isPending}>
            {replacing ? t('settings.inputTokens.external.replace') : t('settings.inputTokens.external.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
