import { Card, Table, Text, Title } from '@mantine/core';
import type { RiskHistoryEntry } from '@vigil/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

/** The audit history of a risk or control, newest first. */
export function AuditHistory({ history }: { history: RiskHistoryEntry[] }) {
  const { t } = useTranslation();
  return (
    <Card withBorder mt="lg">
      <Title order={3} mb="sm">
        {t('risk.history')}
      </Title>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('risk.historyAt')}</Table.Th>
            <Table.Th>{t('risk.historyKind')}</Table.Th>
            <Table.Th>{t('risk.historyBy')}</Table.Th>
            <Table.Th>{t('risk.historyDetails')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {[...history].reverse().map((entry) => (
            <Table.Tr key={entry.id}>
              <Table.Td>{new Date(entry.at).toLocaleString()}</Table.Td>
              <Table.Td>{entry.kind}</Table.Td>
              <Table.Td>{entry.actorName ?? '—'}</Table.Td>
              <Table.Td>
                <Text size="sm" style={{ wordBreak: 'break-word' }}>
                  {historyText(entry.kind, entry.details, t)}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

const SCORE_KEYS: Record<string, string> = {
  potentialImpact: 'risk.scores.potentialImpact',
  likelihood: 'risk.scores.likelihood',
  inherentRisk: 'risk.scores.inherentRisk',
  controlStrength: 'risk.scores.controlStrength',
  residualRisk: 'risk.scores.residualRisk',
  riskDirection: 'risk.scores.riskDirection',
};

/** One line of the audit history in words. */
function historyText(kind: string, details: Record<string, unknown>, t: TFunction): string {
  const text = (value: unknown) => (value === null || value === undefined ? '—' : String(value));
  switch (kind) {
    case 'CREATED':
      return t('risk.historyText.created');
    case 'COPIED':
      return t('risk.historyText.copied', { from: text(details.from) });
    case 'NAME':
    case 'STATE':
    case 'RESPONSE': {
      const line = `${text(details.from)} → ${text(details.to)}`;
      const removed = details.removedLinks as string[] | undefined;
      return removed ? `${line}; ${t('risk.historyText.removedLinks', { ids: removed.join(', ') })}` : line;
    }
    case 'SCORE':
      return Object.entries(details)
        .map(([score, change]) => {
          const { from, to, reason } = change as { from: unknown; to: unknown; reason?: string | null };
          const label = SCORE_KEYS[score] ? t(SCORE_KEYS[score]) : score;
          return `${label}: ${text(from)} → ${text(to)}${reason ? ` (${reason})` : ''}`;
        })
        .join('; ');
    case 'REVISIT':
      return details.done
        ? t('risk.historyText.revisitDone')
        : t('risk.historyText.revisit', { incident: text(details.incident) });
    case 'FIELDS':
      return t('risk.historyText.fields', { fields: ((details.fields as string[]) ?? []).join(', ') });
    case 'REVIEW':
      return t(`risk.historyText.review.${text(details.change)}`, {
        next: text(details.nextReview),
        defaultValue: text(details.change),
      });
    case 'EVIDENCE': {
      const added = details.added as string[] | undefined;
      const removed = details.removed as string[] | undefined;
      return added
        ? t('risk.historyText.evidenceAdded', { files: added.join(', ') })
        : t('risk.historyText.evidenceRemoved', { files: (removed ?? []).join(', ') });
    }
    default:
      return t('risk.historyText.changed');
  }
}
