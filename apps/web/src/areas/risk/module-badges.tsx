import { Badge, Group } from '@mantine/core';
import { entitledRiskModules, RISK_MODULES, type RiskLevel, type RiskModule } from '@vigil/contracts';
import { useTranslation } from 'react-i18next';
import { useCurrentOrg } from '../../lib/session';

/** The modules the current organisation holds (its risk SKUs). */
export function useRiskModules(): RiskModule[] {
  const org = useCurrentOrg();
  return entitledRiskModules(org?.productSkus ?? []);
}

/**
 * The risk module badge selector (spec 1 section 2.7): one badge per module offered; a badge toggles
 * whether the list shows that module's items. At least one stays selected.
 */
export function ModuleBadges({
  offered,
  selected,
  onChange,
}: {
  offered: readonly RiskModule[];
  selected: readonly RiskModule[];
  onChange: (modules: RiskModule[]) => void;
}) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" role="group" aria-label={t('risk.modules.label')}>
      {offered.map((module) => {
        const on = selected.includes(module);
        return (
          <Badge
            key={module}
            component="button"
            type="button"
            size="lg"
            variant={on ? 'filled' : 'outline'}
            aria-pressed={on}
            style={{ cursor: 'pointer' }}
            onClick={() => {
              const next = on ? selected.filter((item) => item !== module) : [...selected, module];
              if (next.length > 0) onChange(RISK_MODULES.filter((item) => next.includes(item)));
            }}
          >
            {t(`risk.modules.${module}`)}
          </Badge>
        );
      })}
    </Group>
  );
}

const LEVEL_COLORS: Record<RiskLevel, string> = {
  INSIGNIFICANT: 'gray',
  LOW: 'green',
  MODERATE: 'yellow',
  HIGH: 'orange',
  EXTREME: 'red',
};

/** A risk level as a coloured badge; a dash when unscored. */
export function LevelBadge({ level }: { level: RiskLevel | null }) {
  const { t } = useTranslation();
  if (!level) return <>—</>;
  return (
    <Badge color={LEVEL_COLORS[level]} variant="light">
      {t(`risk.levels.${level}`)}
    </Badge>
  );
}
