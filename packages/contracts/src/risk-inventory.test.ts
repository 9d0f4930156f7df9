import { describe, expect, it } from 'vitest';
import {
  derivedBusinessCriticality,
  derivedDataSensitivity,
  derivedDueDiligenceStrength,
  INVENTORY_QUESTIONS,
  inventoryKindsOf,
  inventoryScores,
  questionsOf,
  unansweredMandatoryQuestions,
  type InventoryAnswers,
  type InventoryKind,
  type QuestionSet,
} from './risk-inventory';

/** Answers a set with `yes` YES answers first and NO for the rest. */
function answered(set: QuestionSet, yes: number): InventoryAnswers {
  return Object.fromEntries(
    INVENTORY_QUESTIONS[set].map((question, index) => [question, index < yes ? 'YES' : 'NO']),
  );
}

describe('data sensitivity and business criticality', () => {
  it.each([
    [0, 'INSIGNIFICANT'],
    [1, 'LOW'],
    [2, 'MODERATE'],
    [3, 'HIGH'],
    [4, 'EXTREME'],
  ])('%i YES of four is %s', (yes, level) => {
    expect(derivedDataSensitivity(answered('SENSITIVITY', yes))).toBe(level);
    expect(derivedBusinessCriticality(answered('CRITICALITY', yes))).toBe(level);
  });

  it('waits for every answer of the set', () => {
    const { S4: _left, ...three } = answered('SENSITIVITY', 4);
    expect(derivedDataSensitivity(three)).toBeNull();
    expect(derivedBusinessCriticality(answered('SENSITIVITY', 4))).toBeNull();
  });
});

describe('due diligence', () => {
  it.each([
    [0, 'INEFFECTIVE'],
    [1, 'INEFFECTIVE'],
    [2, 'WEAK'],
    [3, 'WEAK'],
    [4, 'MODERATE'],
    [5, 'MODERATE'],
    [6, 'STRONG'],
    [7, 'STRONG'],
    [8, 'COMPLETE'],
  ])('%i YES of eight is %s', (yes, strength) => {
    expect(derivedDueDiligenceStrength(answered('DUE_DILIGENCE', yes))).toBe(strength);
  });
});

describe('inventory scores', () => {
  it.each([
    // sensitivity YES, criticality YES, due-diligence YES -> inherent, residual
    [4, 1, 8, 'EXTREME', 'LOW'],
    [4, 1, 0, 'EXTREME', 'EXTREME'],
    [2, 3, 6, 'HIGH', 'LOW'],
    [2, 3, 4, 'HIGH', 'MODERATE'],
    [0, 0, 8, 'INSIGNIFICANT', 'INSIGNIFICANT'],
  ])('a vendor with %i, %i and %i YES is %s inherent and %s residual', (s, c, d, inherent, residual) => {
    const answers = {
      ...answered('SENSITIVITY', s),
      ...answered('CRITICALITY', c),
      ...answered('DUE_DILIGENCE', d),
    };
    expect(inventoryScores('VENDOR', answers)).toMatchObject({
      inherentRisk: inherent,
      residualRisk: residual,
    });
  });

  it('gives systems no due-diligence or residual score', () => {
    const answers = {
      ...answered('SENSITIVITY', 3),
      ...answered('CRITICALITY', 2),
      ...answered('DUE_DILIGENCE', 8),
    };
    expect(inventoryScores('SYSTEM', answers)).toEqual({
      dataSensitivity: 'HIGH',
      businessCriticality: 'MODERATE',
      inherentRisk: 'HIGH',
      dueDiligenceStrength: null,
      residualRisk: null,
    });
  });

  it('asks vendors the due-diligence questionnaire only', () => {
    expect(questionsOf('SYSTEM')).not.toContain('D1');
    expect(questionsOf('VENDOR')).toContain('D8');
    expect(questionsOf('APPLICATION')).toHaveLength(17);
  });
});

describe('mandatory questions', () => {
  const full = { ...answered('SENSITIVITY', 1), ...answered('CRITICALITY', 2) };
  it.each<[string, InventoryKind, InventoryAnswers, string[]]>([
    ['a system with both scoring sets answered', 'SYSTEM', full, []],
    ['other sets are not mandatory', 'APPLICATION', { ...full, P1: 'YES' }, []],
    ['a system missing criticality answers', 'SYSTEM', answered('SENSITIVITY', 4), ['C1', 'C2', 'C3', 'C4']],
    ['a vendor also owes due diligence', 'VENDOR', full, INVENTORY_QUESTIONS.DUE_DILIGENCE as string[]],
    ['a vendor with everything answered', 'VENDOR', { ...full, ...answered('DUE_DILIGENCE', 3) }, []],
    ['nothing answered', 'SYSTEM', {}, ['S1', 'S2', 'S3', 'S4', 'C1', 'C2', 'C3', 'C4']],
  ])('%s', (_, kind, answers, expected) => {
    expect(unansweredMandatoryQuestions(kind, answers)).toEqual(expected);
  });
});

describe('inventory kinds by module', () => {
  it.each<[Parameters<typeof inventoryKindsOf>[0], InventoryKind[]]>([
    [['SYSTEMS_AND_APPLICATIONS'], ['SYSTEM', 'APPLICATION']],
    [['THIRD_PARTY_RISK'], ['VENDOR']],
    [['INFORMATION_SECURITY'], []],
    [
      ['SYSTEMS_AND_APPLICATIONS', 'THIRD_PARTY_RISK'],
      ['SYSTEM', 'APPLICATION', 'VENDOR'],
    ],
  ])('%j hold %j', (modules, kinds) => {
    expect(inventoryKindsOf(modules)).toEqual(kinds);
  });
});
