import { describe, expect, it } from 'vitest';
import {
  addReviewInterval,
  dueDateStatus,
  entitledRiskModules,
  INHERENT_RISK_MATRIX,
  publicIdOf,
  recommendedControlStrength,
  recommendedInherentRisk,
  recommendedOverallScore,
  recommendedPotentialImpact,
  recommendedResidualRisk,
  recommendedRiskImpact,
  reviewStatus,
  todayIn,
  type ControlStrength,
  type ReviewStatus,
  type ReviewUnit,
  type RiskLevel,
} from './risk';

describe('inherent risk from likelihood and potential impact', () => {
  it.each<[RiskLevel | null, RiskLevel | null, RiskLevel | null]>([
    ['INSIGNIFICANT', 'INSIGNIFICANT', 'INSIGNIFICANT'],
    ['LOW', 'INSIGNIFICANT', 'INSIGNIFICANT'],
    ['MODERATE', 'INSIGNIFICANT', 'LOW'],
    ['LOW', 'LOW', 'LOW'],
    ['MODERATE', 'LOW', 'MODERATE'],
    ['EXTREME', 'INSIGNIFICANT', 'MODERATE'],
    ['MODERATE', 'MODERATE', 'MODERATE'],
    ['HIGH', 'MODERATE', 'HIGH'],
    ['EXTREME', 'LOW', 'HIGH'],
    ['HIGH', 'HIGH', 'HIGH'],
    ['EXTREME', 'HIGH', 'EXTREME'],
    ['EXTREME', 'EXTREME', 'EXTREME'],
    [null, 'HIGH', null],
    ['HIGH', null, null],
  ])('impact %s and likelihood %s give %s', (impact, likelihood, expected) => {
    expect(recommendedInherentRisk(impact, likelihood)).toBe(expected);
  });

  it('is symmetric, and a higher input never lowers it', () => {
    for (let row = 0; row < 5; row++) {
      for (let column = 0; column < 5; column++) {
        expect(INHERENT_RISK_MATRIX[row]![column]).toBe(INHERENT_RISK_MATRIX[column]![row]);
        if (column < 4) {
          const order = ['INSIGNIFICANT', 'LOW', 'MODERATE', 'HIGH', 'EXTREME'];
          expect(order.indexOf(INHERENT_RISK_MATRIX[row]![column + 1]!)).toBeGreaterThanOrEqual(
            order.indexOf(INHERENT_RISK_MATRIX[row]![column]!),
          );
        }
      }
    }
  });
});

describe('residual risk from inherent risk and control strength', () => {
  it.each<[RiskLevel | null, ControlStrength | null, RiskLevel | null]>([
    ['EXTREME', 'INEFFECTIVE', 'EXTREME'],
    ['EXTREME', 'WEAK', 'HIGH'],
    ['EXTREME', 'MODERATE', 'HIGH'],
    ['EXTREME', 'STRONG', 'MODERATE'],
    ['EXTREME', 'COMPLETE', 'LOW'],
    ['LOW', 'STRONG', 'INSIGNIFICANT'],
    ['INSIGNIFICANT', 'COMPLETE', 'INSIGNIFICANT'],
    ['HIGH', null, null],
    [null, 'STRONG', null],
  ])('%s controlled %s leaves %s', (inherent, strength, expected) => {
    expect(recommendedResidualRisk(inherent, strength)).toBe(expected);
  });
});

describe('control strength from the linked controls', () => {
  it.each<[(ControlStrength | null)[], ControlStrength | null]>([
    [[], null],
    [[null, null], null],
    [['STRONG'], 'STRONG'],
    [['STRONG', 'WEAK'], 'MODERATE'],
    [['COMPLETE', 'STRONG'], 'STRONG'],
    [['INEFFECTIVE', 'WEAK'], 'INEFFECTIVE'],
    [['COMPLETE', null], 'COMPLETE'],
  ])('%j give %s', (scores, expected) => {
    expect(recommendedControlStrength(scores)).toBe(expected);
  });
});

describe('system and control scores', () => {
  it.each<[RiskLevel | null, RiskLevel | null, RiskLevel | null]>([
    ['LOW', 'HIGH', 'HIGH'],
    ['EXTREME', 'INSIGNIFICANT', 'EXTREME'],
    ['MODERATE', 'MODERATE', 'MODERATE'],
    [null, 'LOW', null],
  ])('sensitivity %s and criticality %s make impact %s', (sensitivity, criticality, expected) => {
    expect(recommendedPotentialImpact(sensitivity, criticality)).toBe(expected);
  });

  it.each<[ControlStrength | null, ControlStrength | null, ControlStrength | null]>([
    ['STRONG', 'WEAK', 'WEAK'],
    ['COMPLETE', 'COMPLETE', 'COMPLETE'],
    ['INEFFECTIVE', 'STRONG', 'INEFFECTIVE'],
    [null, 'STRONG', null],
  ])('design %s and operating %s make overall %s', (design, operating, expected) => {
    expect(recommendedOverallScore(design, operating)).toBe(expected);
  });
});

describe('modules and public ids', () => {
  it('opens each module with its SKU', () => {
    expect(entitledRiskModules([])).toEqual([]);
    expect(entitledRiskModules(['RISK_THIRD_PARTY_RISK', 'CYBERFRAUD_STANDARD'])).toEqual([
      'THIRD_PARTY_RISK',
    ]);
    expect(entitledRiskModules(['RISK_SYSTEMS_AND_APPLICATIONS', 'RISK_INFORMATION_SECURITY'])).toEqual([
      'INFORMATION_SECURITY',
      'SYSTEMS_AND_APPLICATIONS',
    ]);
  });

  it('numbers risks and controls with four digits', () => {
    expect(publicIdOf('risk', 42)).toBe('R-0042');
    expect(publicIdOf('control', 12345)).toBe('C-12345');
    expect(publicIdOf('risk', 3, true)).toBe('LR-0003');
  });
});

describe('review schedule dates', () => {
  it.each<[string, number, ReviewUnit, string]>([
    ['2026-01-31', 1, 'month', '2026-02-28'],
    ['2028-01-31', 1, 'month', '2028-02-29'],
    ['2026-03-31', 1, 'month', '2026-04-30'],
    ['2026-08-31', 6, 'month', '2027-02-28'],
    ['2026-11-30', 3, 'month', '2027-02-28'],
    ['2028-02-29', 1, 'year', '2029-02-28'],
    ['2028-02-29', 4, 'year', '2032-02-29'],
    ['2026-12-25', 10, 'day', '2027-01-04'],
    ['2028-02-28', 1, 'day', '2028-02-29'],
    ['2026-02-28', 1, 'day', '2026-03-01'],
  ])('%s plus %i %s is %s', (date, every, unit, expected) => {
    expect(addReviewInterval(date, every, unit)).toBe(expected);
  });

  it.each<[string, string, number, ReviewUnit, ReviewStatus]>([
    ['2027-01-01', '2026-11-01', 1, 'year', 'EARLY'],
    ['2027-01-01', '2026-12-02', 1, 'year', 'ALMOST_DUE'],
    ['2027-01-01', '2027-01-01', 1, 'year', 'ALMOST_DUE'],
    ['2027-01-01', '2027-01-02', 1, 'year', 'LATE'],
    // A monthly review is almost due in its last week or so (a quarter of the month).
    ['2026-03-31', '2026-03-22', 1, 'month', 'EARLY'],
    ['2026-03-31', '2026-03-23', 1, 'month', 'ALMOST_DUE'],
    ['2026-03-10', '2026-03-06', 10, 'day', 'EARLY'],
    ['2026-03-10', '2026-03-07', 10, 'day', 'ALMOST_DUE'],
  ])('next review %s on %s (every %i %s) is %s', (next, today, every, unit, expected) => {
    expect(reviewStatus(next, today, every, unit)).toBe(expected);
  });

  it('reads today on the wall clock of a time zone', () => {
    const instant = new Date('2026-03-01T03:00:00Z');
    expect(todayIn('UTC', instant)).toBe('2026-03-01');
    expect(todayIn('America/New_York', instant)).toBe('2026-02-28');
  });
});

describe("a risk's potential impact from its linked systems", () => {
  const system = (dataSensitivity: RiskLevel | null, businessCriticality: RiskLevel | null) => ({
    dataSensitivity,
    businessCriticality,
  });
  it.each<[string, ReturnType<typeof system>[], RiskLevel | null]>([
    ['no system', [], null],
    ['one system: the higher of its two levels', [system('LOW', 'HIGH')], 'HIGH'],
    ['the highest system wins', [system('LOW', 'MODERATE'), system('EXTREME', 'INSIGNIFICANT')], 'EXTREME'],
    ['systems not scored on both are left out', [system('EXTREME', null), system('LOW', 'LOW')], 'LOW'],
    ['no system scored on both', [system(null, 'HIGH'), system('HIGH', null)], null],
  ])('%s', (_, systems, expected) => {
    expect(recommendedRiskImpact(systems)).toBe(expected);
  });
});

describe('due-date status', () => {
  it.each<[string, string, ReviewStatus]>([
    ['2027-03-31', '2027-01-01', 'EARLY'],
    ['2027-03-31', '2027-02-28', 'EARLY'],
    ['2027-03-31', '2027-03-01', 'ALMOST_DUE'],
    ['2027-03-31', '2027-03-31', 'ALMOST_DUE'],
    ['2027-03-31', '2027-04-01', 'LATE'],
    ['2028-03-01', '2028-01-31', 'ALMOST_DUE'],
    ['2028-03-01', '2028-01-30', 'EARLY'],
  ])('due %s on %s is %s', (due, today, expected) => {
    expect(dueDateStatus(due, today)).toBe(expected);
  });
});
