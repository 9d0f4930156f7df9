import { Badge, Checkbox, Group, Select, Table } from '@mantine/core';
import { IconAlertTriangle, IconList, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import {
  RISK_EXCEPTION_FILTERS,
  RISK_MODULES,
  type RiskExceptionFilter,
  type RiskModule,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHasPermission } from '../../lib/session';
import { GatedPage } from '../../shell/gated-page';
import { AnchorLink, ButtonLink } from '../../shell/links';
import { risksQuery } from './api';
import { LevelBadge, ModuleBadges, useRiskModules } from './module-badges';
import { RegisterList, useRegisterList } from './register-list';
import { STATUS_COLORS } from './review-schedule';

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
  const held = useRiskModules();
  const offered = library ? [...RISK_MODULES] : held;
  const list = useRegisterList('risks', library);
  const [modules, setModules] = useState<RiskModule[]>(offered);
  const [state, setState] = useState<'ACTIVE' | 'INACTIVE' | 'ALL'>('ACTIVE');
  const [exceptions, setExceptions] = useState<RiskExceptionFilter>('ALL');
  const [revisit, setRevisit] = useState(false);
  const query = useQuery(
    risksQuery(list.orgId, library, {
      modules,
      state,
      exceptions,
      ...(revisit && { revisit: true }),
      ...list.params,
    }),
  );
  const base = library ? '/risk/risks/library/$ref' : '/risk/risks/register/$ref';
  return (
    <RegisterList
      list={list}
      query={query}
      filters={
        <>
          <Select
            label={t('risk.stateFilter')}
            data={(['ACTIVE', 'INACTIVE', 'ALL'] as const).map((value) => ({
              value,
              label: t(`risk.states.${value}`),
            }))}
            value={state}
            onChange={(value) => value && list.filter(setState)(value as typeof state)}
            allowDeselect={false}
            w={150}
          />
          <Select
            label={t('risk.exceptionFilter')}
            data={RISK_EXCEPTION_FILTERS.map((value) => ({ value, label: t(`risk.exceptions.${value}`) }))}
            value={exceptions}
            onChange={(value) => value && list.filter(setExceptions)(value as RiskExceptionFilter)}
            allowDeselect={false}
            w={200}
          />
          {!library && (
            <Checkbox
              label={t('risk.links.revisitFilter')}
              checked={revisit}
              onChange={(event) => list.filter(setRevisit)(event.currentTarget.checked)}
              mb={8}
            />
          )}
        </>
      }
      actions={
        <>
          {!library && (
            <ButtonLink to="/risk/lists" variant="default" leftSection={<IconList size={16} />}>
              {t('risk.lists.title')}
            </ButtonLink>
          )}
          {list.mayWrite && (
            <ButtonLink to={base} params={{ ref: 'new' }} leftSection={<IconPlus size={16} />}>
              {t('risk.new')}
            </ButtonLink>
          )}
        </>
      }
      above={<ModuleBadges offered={offered} selected={modules} onChange={list.filter(setModules)} />}
      failedTitle={t('risk.loadFailed')}
      empty={{
        icon: <IconAlertTriangle size={32} stroke={1.5} />,
        title: t(library ? 'risk.library.emptyTitle' : 'risk.emptyTitle'),
        message: t(library ? 'risk.library.emptyMessage' : 'risk.emptyMessage'),
      }}
      head={(sortable) => (
        <>
          {sortable('number', t('risk.publicId'))}
          {sortable('name', t('risk.name'))}
          <Table.Th>{t('risk.modules.label')}</Table.Th>
          {sortable('inherentRisk', t('risk.scores.inherentRisk'))}
          {sortable('residualRisk', t('risk.scores.residualRisk'))}
          <Table.Th>{t('risk.response')}</Table.Th>
          {!library && sortable('dueDate', t('risk.dueDate'))}
        </>
      )}
      row={(risk) => (
        <>
          <Table.Td>
            <AnchorLink to={base} params={{ ref: risk.publicId }}>
              {risk.publicId}
            </AnchorLink>
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
          <Table.Td>{risk.modules.map((module) => t(`risk.modules.${module}`)).join(', ')}</Table.Td>
          <Table.Td>
            <LevelBadge level={risk.inherentRisk.value} />
          </Table.Td>
          <Table.Td>
            <LevelBadge level={risk.residualRisk.value} />
          </Table.Td>
          <Table.Td>{risk.response ? t(`risk.responses.${risk.response}`) : '—'}</Table.Td>
          {!library && (
            <Table.Td>
              <Group gap={6} wrap="nowrap">
                {risk.dueDate ?? '—'}
                {risk.dueDateStatus && (
                  <Badge variant="light" color={STATUS_COLORS[risk.dueDateStatus]}>
                    {t(`risk.review.statuses.${risk.dueDateStatus}`)}
                  </Badge>
                )}
              </Group>
            </Table.Td>
          )}
        </>
      )}
    />
  );
}
