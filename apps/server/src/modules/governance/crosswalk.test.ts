import { CROSSWALK_SOURCES } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { crosswalkSources, crosswalkSuggestions } from './crosswalk';
import { libraryEntry } from './library';
import { walkSections } from './template';

const refsOf = (key: string) => {
  const refs = new Set<string>();
  for (const { section } of walkSections(libraryEntry(key)!.template.sections)) {
    refs.add(section.ref);
    for (const control of section.controls) refs.add(control.ref);
  }
  return refs;
};

describe('crosswalk to CSF 2.0', () => {
  it('maps CAT components by their Baseline answer and CPG goals, to real CSF 2.0 subcategories', () => {
    const csf = refsOf('nist-csf-2.0');
    const cat = crosswalkSuggestions('ffiec-cat', [
      { ref: 'D1.G.IT.B', status: 'IMPLEMENTED' },
      // Levels above Baseline do not carry over.
      { ref: 'D1.G.IT.E', status: 'NOT_IMPLEMENTED' },
    ]);
    expect(cat.get('ID.AM-01')).toEqual({ status: 'IMPLEMENTED', from: ['D1.G.IT.B'] });
    const cpg = crosswalkSuggestions('cisa-cpg', [{ ref: '1.A', status: 'PARTIALLY_IMPLEMENTED' }]);
    expect(cpg.get('ID.AM-02')?.status).toBe('PARTIALLY_IMPLEMENTED');
    for (const suggestions of [cat, cpg]) for (const ref of suggestions.keys()) expect(csf).toContain(ref);
  });

  it('suggests the weakest answer mapped to a subcategory, N/A only when all are', () => {
    const suggestions = crosswalkSuggestions('cisa-cpg', [
      { ref: '2.A', status: 'IMPLEMENTED' },
      { ref: '2.C', status: 'NOT_IMPLEMENTED' },
      { ref: '2.B', status: 'NOT_APPLICABLE' },
    ]);
    expect(suggestions.get('PR.AA-01')).toEqual({ status: 'NOT_IMPLEMENTED', from: ['2.A', '2.C', '2.B'] });
    expect(
      crosswalkSuggestions('cisa-cpg', [{ ref: '2.R', status: 'NOT_APPLICABLE' }]).get('PR.DS-11')?.status,
    ).toBe('NOT_APPLICABLE');
    expect(crosswalkSuggestions('iso-27001', [{ ref: 'A.5', status: 'IMPLEMENTED' }]).size).toBe(0);
  });

  it('maps every CPG 2.0 goal, and only those, to real CSF 2.0 subcategories', () => {
    const csf = refsOf('nist-csf-2.0');
    const goals = [...refsOf('cisa-cpg-2.0')].filter((ref) => /^\d\.[A-Z]$/.test(ref));
    expect(goals).toHaveLength(34);
    const suggestions = crosswalkSuggestions(
      'cisa-cpg-2.0',
      goals.map((ref) => ({ ref, status: 'IMPLEMENTED' as const })),
    );
    expect(new Set([...suggestions.values()].flatMap((item) => item.from))).toEqual(new Set(goals));
    for (const ref of suggestions.keys()) expect(csf, ref).toContain(ref);
    // A governance goal lands on Govern, a recovery goal on Recover.
    expect(
      crosswalkSuggestions('cisa-cpg-2.0', [{ ref: '1.A', status: 'PARTIALLY_IMPLEMENTED' }]).get('GV.RR-02'),
    ).toEqual({ status: 'PARTIALLY_IMPLEMENTED', from: ['1.A'] });
    expect(
      crosswalkSuggestions('cisa-cpg-2.0', [{ ref: '6.A', status: 'IMPLEMENTED' }]).get('RC.RP-01')?.status,
    ).toBe('IMPLEMENTED');
    // 1.0.1 refs mean other goals in 2.0: a 1.0.1 answer is not read as a 2.0 one.
    expect(crosswalkSuggestions('cisa-cpg-2.0', [{ ref: '2.X', status: 'IMPLEMENTED' }]).size).toBe(0);
  });

  it('reads the sources the contracts name', () => {
    expect(crosswalkSources()).toEqual([...CROSSWALK_SOURCES]);
  });

  it('covers every CAT component and CPG goal of the library', () => {
    const cat = libraryEntry('ffiec-cat')!.template;
    const components = [...walkSections(cat.sections)].filter(({ section }) => section.controls.length > 0);
    const answers = components.map(({ section }) => ({
      ref: `${section.ref}.B`,
      status: 'IMPLEMENTED' as const,
    }));
    const used = new Set(
      [...crosswalkSuggestions('ffiec-cat', answers).values()].flatMap((item) => item.from),
    );
    expect(used.size).toBe(components.length);
    const goals = [...refsOf('cisa-cpg')].filter((ref) => /^\d\.[A-Z]$/.test(ref));
    const fromGoals = crosswalkSuggestions(
      'cisa-cpg',
      goals.map((ref) => ({ ref, status: 'IMPLEMENTED' as const })),
    );
    expect(new Set([...fromGoals.values()].flatMap((item) => item.from)).size).toBe(goals.length);
  });
});
