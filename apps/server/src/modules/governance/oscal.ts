import { OSCAL_CATALOG_MAX_ITEMS } from '@vigil/contracts';
import type { FrameworkTemplate, TemplateControl, TemplateSection } from './template';

/** Why a document is not an importable OSCAL catalog, and where (a JSON path). */
export class OscalCatalogError extends Error {
  override readonly name = 'OscalCatalogError';
  constructor(
    readonly reason: string,
    readonly path: string,
    readonly kind: 'invalid' | 'empty' | 'tooManyItems' = 'invalid',
  ) {
    super(`${reason} at ${path}`);
  }
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function objectAt(value: unknown, path: string): Json {
  if (!isObject(value)) throw new OscalCatalogError('an object is expected', path);
  return value;
}

function arrayAt(value: unknown, path: string): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new OscalCatalogError('an array is expected', path);
  return value;
}

function textAt(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new OscalCatalogError('a non-empty string is expected', path);
  }
  return value.trim();
}

const optionalText = (value: unknown, path: string): string =>
  value === undefined ? '' : typeof value === 'string' ? value.trim() : textAt(value, path);

/** OSCAL marks items taken out of a catalog with the prop status=withdrawn; they are not imported. */
function isWithdrawn(item: Json, path: string): boolean {
  return arrayAt(item.props, `${path}.props`).some(
    (prop) =>
      isObject(prop) &&
      prop.name === 'status' &&
      typeof prop.value === 'string' &&
      prop.value.toLowerCase() === 'withdrawn',
  );
}

/** The prose of parts with one of `names`, each part's own prose followed by that of its sub-parts. */
function proseOf(parts: unknown[], path: string, names: string[]): string[] {
  const found: string[] = [];
  parts.forEach((value, index) => {
    const partPath = `${path}[${index}]`;
    const part = objectAt(value, partPath);
    const name = textAt(part.name, `${partPath}.name`);
    if (!names.includes(name)) return;
    const texts = [optionalText(part.prose, `${partPath}.prose`)];
    const collect = (subParts: unknown[], subPath: string) =>
      subParts.forEach((sub, subIndex) => {
        const subPartPath = `${subPath}[${subIndex}]`;
        const subPart = objectAt(sub, subPartPath);
        texts.push(optionalText(subPart.prose, `${subPartPath}.prose`));
        collect(arrayAt(subPart.parts, `${subPartPath}.parts`), `${subPartPath}.parts`);
      });
    collect(arrayAt(part.parts, `${partPath}.parts`), `${partPath}.parts`);
    const text = texts.filter(Boolean).join('\n');
    if (text) found.push(text);
  });
  return found;
}

interface Counter {
  items: number;
}

function count(counter: Counter, path: string) {
  counter.items++;
  if (counter.items > OSCAL_CATALOG_MAX_ITEMS) {
    throw new OscalCatalogError(`more than ${OSCAL_CATALOG_MAX_ITEMS} items`, path, 'tooManyItems');
  }
}

function readControl(item: Json, path: string): TemplateControl {
  const id = textAt(item.id, `${path}.id`);
  const parts = arrayAt(item.parts, `${path}.parts`);
  return {
    ref: id,
    title: textAt(item.title, `${path}.title`),
    statement: proseOf(parts, `${path}.parts`, ['statement']).join('\n'),
    examples: proseOf(parts, `${path}.parts`, ['example', 'guidance']),
    mandatory: false,
  };
}

/**
 * Controls of a group or a control. One with controls nested in it becomes a section of its own
 * (CSF categories hold their subcategories so); unless it is only a heading (class category), it is
 * also answered itself, first in that section (as an SP 800-53 control before its enhancements).
 */
function readControls(values: unknown[], path: string, counter: Counter) {
  const controls: TemplateControl[] = [];
  const sections: TemplateSection[] = [];
  values.forEach((value, index) => {
    const controlPath = `${path}[${index}]`;
    const item = objectAt(value, controlPath);
    if (isWithdrawn(item, controlPath)) return;
    count(counter, controlPath);
    const control = readControl(item, controlPath);
    const nested = readControls(
      arrayAt(item.controls, `${controlPath}.controls`),
      `${controlPath}.controls`,
      counter,
    );
    if (nested.controls.length === 0 && nested.sections.length === 0) {
      controls.push(control);
      return;
    }
    sections.push({
      ref: control.ref,
      title: control.title,
      description: control.statement,
      sections: nested.sections,
      controls: item.class === 'category' ? nested.controls : [control, ...nested.controls],
    });
  });
  return { controls, sections };
}

function readGroups(values: unknown[], path: string, counter: Counter): TemplateSection[] {
  const sections: TemplateSection[] = [];
  values.forEach((value, index) => {
    const groupPath = `${path}[${index}]`;
    const group = objectAt(value, groupPath);
    if (isWithdrawn(group, groupPath)) return;
    count(counter, groupPath);
    const title = textAt(group.title, `${groupPath}.title`);
    const parts = arrayAt(group.parts, `${groupPath}.parts`);
    const inner = readControls(
      arrayAt(group.controls, `${groupPath}.controls`),
      `${groupPath}.controls`,
      counter,
    );
    sections.push({
      ref: group.id === undefined ? title : textAt(group.id, `${groupPath}.id`),
      title,
      description: proseOf(parts, `${groupPath}.parts`, ['overview', 'statement', 'overview-statement']).join(
        '\n',
      ),
      sections: [
        ...readGroups(arrayAt(group.groups, `${groupPath}.groups`), `${groupPath}.groups`, counter),
        ...inner.sections,
      ],
      controls: inner.controls,
    });
  });
  return sections;
}

const hasControls = (section: TemplateSection): boolean =>
  section.controls.length > 0 || section.sections.some(hasControls);

/**
 * Reads an OSCAL catalog (JSON, already parsed) into a framework: groups and controls holding
 * controls become nested sections, the other controls are answered, with their statement and their
 * implementation examples (or guidance); withdrawn items are left out. Throws OscalCatalogError,
 * naming the place, for anything that is not a catalog.
 */
export function importOscalCatalog(document: unknown): FrameworkTemplate {
  const root = objectAt(document, '$');
  const catalog = objectAt(root.catalog, '$.catalog');
  textAt(catalog.uuid, '$.catalog.uuid');
  const metadata = objectAt(catalog.metadata, '$.catalog.metadata');
  const name = textAt(metadata.title, '$.catalog.metadata.title');
  const version = optionalText(metadata.version, '$.catalog.metadata.version');
  const counter: Counter = { items: 0 };
  const sections = readGroups(arrayAt(catalog.groups, '$.catalog.groups'), '$.catalog.groups', counter);
  const loose = readControls(arrayAt(catalog.controls, '$.catalog.controls'), '$.catalog.controls', counter);
  if (loose.controls.length > 0 || loose.sections.length > 0) {
    // Controls straight under the catalog go to a section named after it.
    sections.push({
      ref: name,
      title: name,
      description: '',
      sections: loose.sections,
      controls: loose.controls,
    });
  }
  const kept = sections.filter(hasControls);
  if (kept.length === 0) throw new OscalCatalogError('no controls', '$.catalog', 'empty');
  return {
    name,
    version,
    description: optionalText(metadata.remarks, '$.catalog.metadata.remarks'),
    tiers: [],
    sections: kept,
    riskProfile: null,
  };
}
