import { readFileSync } from 'node:fs';
import { importOscalCatalog } from './oscal';
import { countTemplate, type FrameworkTemplate } from './template';

export interface LibraryEntry {
  key: string;
  publisher: string;
  template: FrameworkTemplate;
  sectionCount: number;
  controlCount: number;
}

const readJson = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./catalogs/${name}`, import.meta.url), 'utf8'));

/** CSF 2.0's implementation tiers, lowest first. */
const CSF_TIERS = ['Partial', 'Risk Informed', 'Repeatable', 'Adaptive'];

function entry(key: string, publisher: string, template: FrameworkTemplate): LibraryEntry {
  const { sections, controls } = countTemplate(template);
  return { key, publisher, template, sectionCount: sections, controlCount: controls };
}

let entries: LibraryEntry[] | undefined;

/**
 * The frameworks every organisation may adopt: NIST CSF 2.0 read from NIST's OSCAL catalog, the CISA
 * performance goals (2.0, and 1.0.1 for organisations that keep its records) and the FFIEC CAT from data
 * files of their structure. Read once, when first asked.
 */
export function frameworkLibrary(): LibraryEntry[] {
  entries ??= [
    entry('nist-csf-2.0', 'NIST', {
      ...importOscalCatalog(readJson('nist-csf-2.0-catalog.json')),
      name: 'NIST Cybersecurity Framework 2.0',
      description:
        'The NIST Cybersecurity Framework (CSF) 2.0: 6 functions, 22 categories and 106 subcategories with ' +
        'their implementation examples, and the four CSF tiers.',
      tiers: CSF_TIERS,
    }),
    entry('cisa-cpg-2.0', 'CISA', readJson('cisa-cpg-2.0.json') as FrameworkTemplate),
    entry('cisa-cpg', 'CISA', readJson('cisa-cpg.json') as FrameworkTemplate),
    entry('ffiec-cat', 'FFIEC', readJson('ffiec-cat.json') as FrameworkTemplate),
  ];
  return entries;
}

export const libraryEntry = (key: string) => frameworkLibrary().find((item) => item.key === key);
