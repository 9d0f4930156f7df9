import { Badge, Button, Checkbox, EmptyState, Group, Select, Stack, Table, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconCopy, IconList, IconPlus, IconSearch } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_PAGE_SIZE,
  RISK_EXCEPTION_FILTERS,
  RISK_MODULES,
  riskCopyResultSchema,
  type RiskExceptionFilter,
  type RiskModule,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch, orgPath } from '../../lib/api';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { GatedPage } from '../../shell/gated-page';
import { ListPager } from '../../shell/list-pager';
import { ListStates } from '../../shell/query-status';
import { AnchorLink, ButtonLink } from '../../shell/links';
import { SortableHeader } from '../../shell/sortable-header';
import { riskKey, risksQuery } from './api';
import { LevelBadge, ModuleBadges, useRiskModules } from './module-badges';

/** The risk register (/risk/risks/register) or the provider's library (/risk/risks/library). */
export function RisksPage({ library }: { library: boolean }) {
  const { t } = useTranslation();
  const allowed = useHasPermission('RISK_VIEW');
  const held = useRiskModules();
  return (
    <GatedPage
      title={t(library ? 'nav.tabs.riskLibrary' : 'nav.tabs.riskRegister')}
      allowed={allowed && (library || held.length > 0)}
      maw={1400}
    >
      <RiskList library={library} />
    </GatedPage>
  );
}

function RiskList({ library }: { library: boolean }) {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const queryClient = useQueryClient();
  const held = useRiskModules();
  const offered = library ? [...RISK_MODULES] : held;
  const canEdit = useHasPermission('RISK_EDIT');
  const canCopy = library && canEdit && held.length > 0;
  const [modules, setModules] = useState<RiskModule[]>(offered);
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const [state, setState] = useState<'ACTIVE' | 'INACTIVE' | 'ALL'>('ACTIVE');
  const [exceptions, setExceptions] = useState<RiskExceptionFilter>('ALL');
  const [revisit, setRevisit] = useState(false);
  const [sort, setSort] = useState({ sortBy: 'number', desc: false });
  const [pageNumber, setPageNumber] = useState(1);
  const [chosen, setChosen] = useState<string[]>([]);
  const list = useQuery(
    risksQuery(orgId, library, {
      modules,
      q,
      state,
      exceptions,
      ...(revisit && { revisit: true }),
      ...sort,
      pageNumber,
      pageSize: DEFAULT_PAGE_SIZE,
    }),
  );
  const copy = useMutation({
    mutationFn: () =>
      apiFetch(`${orgPath(orgId)}/risks/library/copy`, {
        method: 'POST',
        body: { ids: chosen },
        schema: riskCopyResultSchema,
      }),
    onSuccess: async (result) => {
      setChosen([]);
      await queryClient.invalidateQueries({ queryKey: riskKey(orgId) });
      notifications.show({
        color: 'green',
        message: t('risk.library.copied', { count: result.copied.length }),
      });
      if (result.alreadyInRegister.length > 0) {
        notifications.show({
          color: 'yellow',
          message: t('RISK_COPY_ALREADY_IN_REGISTER', {
            0: result.alreadyInRegister.map((item) => item.name).join(', '),
          }),
        });
      }
    },
    meta: { errorKey: 'risk.library.copyFailed' },
  });
  const reset =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPageNumber(1);
    };
  const header = (field: string, label: string) => (
    <SortableHeader
      sorted={sort.sortBy === field}
      desc={sort.desc}
      onSort={() => {
        setSort((current) => ({ sortBy: field, desc: current.sortBy === field ? !current.desc : false }));
        setPageNumber(1);
      }}
    >
      {label}
    </SortableHeader>
  );
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end">
          <TextInput
            label={t('risk.search')}
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(event) => reset(setSearch)(event.currentTarget.value)}
          />
          <Select
            label={t('risk.stateFilter')}
            data={(['ACTIVE', 'INACTIVE', 'ALL'] as const).map((value) => ({
              value,
              label: t(`risk.states.${value}`),
            }))}
            value={state}
            onChange={(value) => value && reset(setState)(value as typeof state)}
            allowDeselect={false}
            w={150}
          />
          <Select
            label={t('risk.exceptionFilter')}
            data={RISK_EXCEPTION_FILTERS.map((value) => ({ value, label: t(`risk.exceptions.${value}`) }))}
            value={exceptions}
            onChange={(value) => value && reset(setExceptions)(value as RiskExceptionFilter)}
            allowDeselect={false}
            w={200}
          />
          {!library && (
            <Checkbox
              label={t('risk.links.revisitFilter')}
              checked={revisit}
              onChange={(event) => reset(setRevisit)(event.currentTarget.checked)}
              mb={8}
            />
          )}
        </Group>
        <Group>
          {!library && (
            <ButtonLink to="/risk/lists" variant="default" leftSection={<IconList size={16} />}>
              {t('risk.lists.title')}
            </ButtonLink>
          )}
          {!library && canEdit && (
            <ButtonLink
              to="/risk/risks/register/$ref"
              params={{ ref: 'new' }}
              leftSection={<IconPlus size={16} />}
            >
              {t('risk.new')}
            </ButtonLink>
          )}
          {canCopy && (
            <Button
              leftSection={<IconCopy size={16} />}
              disabled={chosen.length === 0}
              loading={copy.isPending}
              onClick={() => copy.mutate()}
            >
              {t('risk.library.copy', { count: chosen.length })}
            </Button>
          )}
        </Group>
      </Group>
      <ModuleBadges offered={offered} selected={modules} onChange={reset(setModules)} />
      <ListStates
        query={list}
        loadingLabel={t('risk.loading')}
        failedTitle={t('risk.loadFailed')}
        empty={
          <EmptyState
            icon={<IconAlertTriangle size={32} stroke={1.5} />}
            withIndicatorBackground
            title={t(library ? 'risk.library.emptyTitle' : 'risk.emptyTitle')}
            description={
              q ? t('risk.noMatch') : t(library ? 'risk.library.emptyMessage' : 'risk.emptyMessage')
            }
          />
        }
      >
        {(data) => (
          <>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  {canCopy && <Table.Th w={40} />}
                  {header('number', t('risk.publicId'))}
                  {header('name', t('risk.name'))}
                  <Table.Th>{t('risk.modules.label')}</Table.Th>
                  {header('inherentRisk', t('risk.scores.inherentRisk'))}
                  {header('residualRisk', t('risk.scores.residualRisk'))}
                  <Table.Th>{t('risk.response')}</Table.Th>
                  {!library && header('dueDate', t('risk.dueDate'))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.items.map((risk) => (
                  <Table.Tr key={risk.id}>
                    {canCopy && (
                      <Table.Td>
                        <Checkbox
                          aria-label={t('risk.library.choose', { name: risk.name })}
                          checked={chosen.includes(risk.id)}
                          onChange={(event) => {
                            const on = event.currentTarget.checked;
                            setChosen((current) =>
                              on ? [...current, risk.id] : current.filter((id) => id !== risk.id),
                            );
                          }}
                        />
                      </Table.Td>
                    )}
                    <Table.Td>
                      {library ? (
                        <AnchorLink to="/risk/risks/library/$ref" params={{ ref: risk.publicId }}>
                          {risk.publicId}
                        </AnchorLink>
                      ) : (
                        <AnchorLink to="/risk/risks/register/$ref" params={{ ref: risk.publicId }}>
                          {risk.publicId}
                        </AnchorLink>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Group gap={6}>
                        {risk.name}
                        {risk.keyRisk && <Badge variant="light">{t('risk.keyRisk')}</Badge>}
                        {risk.revisitScores && (
                          <Badge variant="light" color="orange">
                            {t('risk.links.revisitBadge')}
                          </Badge>
                        )}
                        {risk.exception && (
                          <Badge variant="light" color="grape">
                            {t('risk.exception')}
                          </Badge>
                        )}
                        {risk.state === 'INACTIVE' && (
                          <Badge variant="outline" color="gray">
                            {t('risk.states.INACTIVE')}
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      {risk.modules.map((module) => t(`risk.modules.${module}`)).join(', ')}
                    </Table.Td>
                    <Table.Td>
                      <LevelBadge level={risk.inherentRisk.value} />
                    </Table.Td>
                    <Table.Td>
                      <LevelBadge level={risk.residualRisk.value} />
                    </Table.Td>
                    <Table.Td>{risk.response ? t(`risk.responses.${risk.response}`) : '—'}</Table.Td>
                    {!library && <Table.Td>{risk.dueDate ?? '—'}</Table.Td>}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <ListPager
              page={pageNumber}
              pageSize={DEFAULT_PAGE_SIZE}
              total={data.total}
              onChange={setPageNumber}
            />
          </>
        )}
      </ListStates>
    </Stack>
  );
}
