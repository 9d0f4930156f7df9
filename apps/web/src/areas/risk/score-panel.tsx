import { Button, Card, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import {
  CONTROL_STRENGTHS,
  INHERENT_RISK_MATRIX,
  RISK_DIRECTIONS,
  RISK_LEVELS,
  type ControlStrength,
  type RiskDirection,
  type RiskLevel,
} from '@vigil/contracts';
import { useTranslation } from 'react-i18next';
import { LevelBadge } from './module-badges';

/** A recommended score as edited: its value and the reason it differs from the recommendation. */
export interface ScoreDraft<T extends string> {
  value: T | null;
  reason: string;
}

export interface ScoresDraft {
  potentialImpact: ScoreDraft<RiskLevel>;
  likelihood: RiskLevel | null;
  inherentRisk: ScoreDraft<RiskLevel>;
  controlStrength: ScoreDraft<ControlStrength>;
  residualRisk: ScoreDraft<RiskLevel>;
  riskDirection: RiskDirection | null;
}

export interface Recommendations {
  potentialImpact: RiskLevel | null;
  inherentRisk: RiskLevel | null;
  controlStrength: ControlStrength | null;
  residualRisk: RiskLevel | null;
}

/** A score that has a recommendation and differs from it needs a reason. */
export const needsReason = <T extends string>(score: ScoreDraft<T>, recommended: T | null) =>
  score.value !== null && recommended !== null && score.value !== recommended;

function RecommendedScore<T extends string>({
  label,
  options,
  optionLabel,
  score,
  recommended,
  needs,
  checked,
  onChange,
}: {
  label: string;
  options: readonly T[];
  optionLabel: (value: T) => string;
  score: ScoreDraft<T>;
  recommended: T | null;
  needs: string;
  checked: boolean;
  onChange: (score: ScoreDraft<T>) => void;
}) {
  const { t } = useTranslation();
  const differs = needsReason(score, recommended);
  return (
    <Stack gap={4}>
      <Group align="flex-end" gap="sm">
        <Select
          label={label}
          data={options.map((value) => ({ value, label: optionLabel(value) }))}
          value={score.value}
          onChange={(value) => onChange({ ...score, value: value as T | null })}
          clearable
          w={200}
        />
        <Button
          variant="light"
          disabled={!recommended || score.value === recommended}
          onClick={() => onChange({ value: recommended, reason: '' })}
        >
          {t('risk.scores.useRecommended')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {recommended
          ? t('risk.scores.recommended', { value: optionLabel(recommended) })
          : t('risk.scores.noRecommendation', { needs })}
      </Text>
      {differs && (
        <TextInput
          label={t('risk.scores.overrideReason')}
          required
          value={score.reason}
          onChange={(event) => onChange({ ...score, reason: event.currentTarget.value })}
          error={checked && !score.reason.trim() ? t('risk.scores.reasonRequired') : undefined}
        />
      )}
    </Stack>
  );
}

/** The scores of a risk with the recommendations computed as the server computes them. */
export function ScorePanel({
  scores,
  recommended,
  checked,
  onChange,
}: {
  scores: ScoresDraft;
  recommended: Recommendations;
  checked: boolean;
  onChange: (scores: ScoresDraft) => void;
}) {
  const { t } = useTranslation();
  const level = (value: RiskLevel) => t(`risk.levels.${value}`);
  const strength = (value: ControlStrength) => t(`risk.strengths.${value}`);
  return (
    <Card withBorder>
      <Stack gap="md">
        <Title order={3}>{t('risk.scores.title')}</Title>
        <Group align="flex-start" gap="xl" wrap="wrap">
          <Stack gap="sm">
            <RecommendedScore
              label={t('risk.scores.potentialImpact')}
              options={RISK_LEVELS}
              optionLabel={level}
              score={scores.potentialImpact}
              recommended={recommended.potentialImpact}
              needs={t('risk.scores.needs.potentialImpact')}
              checked={checked}
              onChange={(potentialImpact) => onChange({ ...scores, potentialImpact })}
            />
            <Select
              label={t('risk.scores.likelihood')}
              data={RISK_LEVELS.map((value) => ({ value, label: level(value) }))}
              value={scores.likelihood}
              onChange={(value) => onChange({ ...scores, likelihood: value as RiskLevel | null })}
              clearable
              w={200}
            />
            <RecommendedScore
              label={t('risk.scores.inherentRisk')}
              options={RISK_LEVELS}
              optionLabel={level}
              score={scores.inherentRisk}
              recommended={recommended.inherentRisk}
              needs={t('risk.scores.needs.inherentRisk')}
              checked={checked}
              onChange={(inherentRisk) => onChange({ ...scores, inherentRisk })}
            />
            <RecommendedScore
              label={t('risk.scores.controlStrength')}
              options={CONTROL_STRENGTHS}
              optionLabel={strength}
              score={scores.controlStrength}
              recommended={recommended.controlStrength}
              needs={t('risk.scores.needs.controlStrength')}
              checked={checked}
              onChange={(controlStrength) => onChange({ ...scores, controlStrength })}
            />
            <RecommendedScore
              label={t('risk.scores.residualRisk')}
              options={RISK_LEVELS}
              optionLabel={level}
              score={scores.residualRisk}
              recommended={recommended.residualRisk}
              needs={t('risk.scores.needs.residualRisk')}
              checked={checked}
              onChange={(residualRisk) => onChange({ ...scores, residualRisk })}
            />
            <Select
              label={t('risk.scores.riskDirection')}
              data={RISK_DIRECTIONS.map((value) => ({ value, label: t(`risk.directions.${value}`) }))}
              value={scores.riskDirection}
              onChange={(value) => onChange({ ...scores, riskDirection: value as RiskDirection | null })}
              clearable
              w={200}
            />
          </Stack>
          <RiskMatrix impact={scores.potentialImpact.value} likelihood={scores.likelihood} />
        </Group>
      </Stack>
    </Card>
  );
}

/** The 5x5 inherent-risk matrix, likelihood down and impact across, the risk's cell marked. */
export function RiskMatrix({
  impact,
  likelihood,
}: {
  impact: RiskLevel | null;
  likelihood: RiskLevel | null;
}) {
  const { t } = useTranslation();
  return (
    <Table withTableBorder withColumnBorders w="auto" aria-label={t('risk.scores.matrix')}>
      <Table.Caption>{t('risk.scores.matrix')}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('risk.scores.likelihoodImpact')}</Table.Th>
          {RISK_LEVELS.map((column) => (
            <Table.Th key={column}>{t(`risk.levels.${column}`)}</Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {[...RISK_LEVELS].reverse().map((row) => (
          <Table.Tr key={row}>
            <Table.Th>{t(`risk.levels.${row}`)}</Table.Th>
            {RISK_LEVELS.map((column) => {
              const cell = INHERENT_RISK_MATRIX[RISK_LEVELS.indexOf(row)]![RISK_LEVELS.indexOf(column)]!;
              const current = row === likelihood && column === impact;
              return (
                <Table.Td
                  key={column}
                  aria-current={current || undefined}
                  style={current ? { outline: '3px solid var(--mantine-color-blue-6)' } : undefined}
                >
                  <LevelBadge level={cell} />
                </Table.Td>
              );
            })}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
