import { describe, expect, it } from 'vitest';
import {
  entitledRiskModules,
  INHERENT_RISK_MATRIX,
  publicIdOf,
  recommendedControlStrength,
  recommendedInherentRisk,
  recommendedOverallScore,
  recommendedPotentialImpact,
  recommendedResidualRisk,
  type ControlStrength,
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
