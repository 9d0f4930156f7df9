import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { frameworkLibrary } from './library';
import { importOscalCatalog, OscalCatalogError } from './oscal';
import { countTemplate, walkSections } from './template';

const csfFile = JSON.parse(
  readFileSync(new URL('./catalogs/nist-csf-2.0-catalog.json', import.meta.url), 'utf8'),
) as unknown;

const catalog = (body: object) => ({
  catalog: { uuid: 'c1', metadata: { title: 'Mini', version: '1' }, ...body },
});

function errorOf(document: unknown): OscalCatalogError {
  try {
    importOscalCatalog(document);
  } catch (error) {
    if (error instanceof OscalCatalogError) return error;
    throw error;
  }
  throw new Error('imported');
}

describe('OSCAL catalog importer on NIST CSF 2.0', () => {
  const csf = importOscalCatalog(csfFile);

  it('reads 6 functions, 22 categories and 106 subcategories, withdrawn items left out', () => {
    expect(csf.sections.map((fn) => fn.ref)).toEqual(['GV', 'ID', 'PR', 'DE', 'RS', 'RC']);
    const categories = csf.sections.flatMap((fn) => fn.sections);
    expect(categories).toHaveLength(22);
    const subcategories = categories.flatMap((category) => category.controls);
    expect(subcategories).toHaveLength(106);
    expect(countTemplate(csf)).toEqual({ sections: 28, controls: 106 });
    // CSF 1.1 items withdrawn in 2.0 are in the file but not in the framework.
    const refs = [...walkSections(csf.sections)].map(({ section }) => section.ref);
    expect(refs).not.toContain('ID.BE');
    expect(refs).not.toContain('PR.AC');
    expect(subcategories.map((control) => control.ref)).not.toContain('ID.AM-06');
    expect(categories.map((category) => category.ref)).toContain('GV.SC');
  });

  it('keeps titles, statements and implementation examples', () => {
    const govern = csf.sections[0]!;
    expect(govern.title).toBe('GOVERN');
    expect(govern.description).toMatch(/risk management strategy/);
    const context = govern.sections[0]!;
    expect(context).toMatchObject({ ref: 'GV.OC', title: 'Organizational Context' });
    const first = context.controls[0]!;
    expect(first.ref).toBe('GV.OC-01');
    expect(first.statement).toBe(
      'The organizational mission is understood and informs cybersecurity risk management',
    );
    expect(first.examples.length).toBeGreaterThan(0);
    expect(first.examples[0]).toMatch(/^Share the organization's mission/);
  });
});

describe('OSCAL catalog importer rules', () => {
  it('makes a control with enhancements a section that answers the control first', () => {
    const template = importOscalCatalog(
      catalog({
        groups: [
          {
            id: 'ac',
            title: 'Access Control',
            controls: [
              {
                id: 'ac-2',
                title: 'Account Management',
                parts: [
                  { name: 'statement', prose: 'Manage accounts.', parts: [{ name: 'item', prose: 'a.' }] },
                ],
                controls: [
                  {
                    id: 'ac-2.1',
                    title: 'Automated Management',
                    parts: [{ name: 'guidance', prose: 'Use tools.' }],
                  },
                  { id: 'ac-2.2', title: 'Gone', props: [{ name: 'status', value: 'Withdrawn' }] },
                ],
              },
            ],
          },
        ],
      }),
    );
    const section = template.sections[0]!.sections[0]!;
    expect(section.ref).toBe('ac-2');
    expect(section.controls.map((control) => control.ref)).toEqual(['ac-2', 'ac-2.1']);
    expect(section.controls[0]!.statement).toBe('Manage accounts.\na.');
    expect(section.controls[1]!.examples).toEqual(['Use tools.']);
  });

  it('puts controls straight under the catalog in a section named after it', () => {
    const template = importOscalCatalog(catalog({ controls: [{ id: 'x-1', title: 'One' }] }));
    expect(template.sections).toMatchObject([{ title: 'Mini', controls: [{ ref: 'x-1' }] }]);
  });

  it('names the place of what is wrong', () => {
    expect(errorOf([])).toMatchObject({ path: '$', kind: 'invalid' });
    expect(errorOf({ profile: {} })).toMatchObject({ path: '$.catalog' });
    expect(errorOf(catalog({ metadata: {} }))).toMatchObject({ path: '$.catalog.metadata.title' });
    expect(errorOf(catalog({ groups: [{ id: 'g', title: 'G', controls: [{ id: 'c' }] }] }))).toMatchObject({
      path: '$.catalog.groups[0].controls[0].title',
    });
    expect(errorOf(catalog({ groups: {} }))).toMatchObject({ path: '$.catalog.groups' });
  });

  it('refuses a catalog without controls or with too many items', () => {
    expect(errorOf(catalog({ groups: [{ id: 'g', title: 'Empty' }] }))).toMatchObject({ kind: 'empty' });
    const controls = Array.from({ length: 5001 }, (_, index) => ({ id: `c${index}`, title: `C${index}` }));
    expect(errorOf(catalog({ controls }))).toMatchObject({ kind: 'tooManyItems' });
  });
});

describe('framework library', () => {
  it('ships CSF 2.0, the CISA performance goals and the FFIEC CAT structure', () => {
    const library = frameworkLibrary();
    expect(library.map((item) => [item.key, item.sectionCount, item.controlCount])).toEqual([
      ['nist-csf-2.0', 28, 106],
      ['cisa-cpg-2.0', 6, 34],
      ['cisa-cpg', 5, 38],
      ['ffiec-cat', 5 + 15 + 30, 150],
    ]);
    const cat = library.find((item) => item.key === 'ffiec-cat')!.template;
    expect(cat.sections).toHaveLength(5);
    expect(cat.sections.flatMap((domain) => domain.sections)).toHaveLength(15);
    expect(cat.tiers).toEqual(['Baseline', 'Evolving', 'Intermediate', 'Advanced', 'Innovative']);
    expect(cat.riskProfile?.levels).toEqual(['Least', 'Minimal', 'Moderate', 'Significant', 'Most']);
    expect(cat.riskProfile?.categories).toHaveLength(5);
  });

  it('ships CPG 2.0 under the six CSF 2.0 functions, its goals numbered by function', () => {
    const cpg = frameworkLibrary().find((item) => item.key === 'cisa-cpg-2.0')!.template;
    expect(cpg.name).toBe('CISA Cross-Sector Cybersecurity Performance Goals 2.0');
    expect(cpg.sections.map((section) => [section.ref, section.controls.length])).toEqual([
      ['GV', 5],
      ['ID', 5],
      ['PR', 19],
      ['DE', 2],
      ['RS', 2],
      ['RC', 1],
    ]);
    for (const [index, section] of cpg.sections.entries()) {
      expect(section.sections).toEqual([]);
      const letters = section.controls.map((control) => control.ref);
      // 1.A, 1.B, … under the first function, 2.A, … under the second: no gaps, no repeats.
      expect(letters).toEqual(
        letters.map((_, position) => `${index + 1}.${String.fromCharCode(65 + position)}`),
      );
      for (const control of section.controls) {
        expect(control.title.length, control.ref).toBeGreaterThan(0);
        expect(control.statement.length, control.ref).toBeGreaterThan(0);
      }
    }
    const goals = cpg.sections.flatMap((section) => section.controls);
    expect(goals.find((goal) => goal.ref === '1.A')?.title).toBe('Establish Cybersecurity Responsibilities');
    expect(goals.find((goal) => goal.ref === '6.A')?.title).toBe('Execute Incident Recovery Plan');
    expect(new Set(goals.map((goal) => goal.title)).size).toBe(34);
  });

  it('gives every section and control of a library framework its own ref', () => {
    for (const { key, template } of frameworkLibrary()) {
      const refs = [...walkSections(template.sections)].flatMap(({ section }) => [
        section.ref,
        ...section.controls.map((control) => control.ref),
      ]);
      expect(
        refs.filter((ref, index) => refs.indexOf(ref) !== index),
        key,
      ).toEqual([]);
    }
  });
});
