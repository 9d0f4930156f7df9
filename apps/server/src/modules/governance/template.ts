import type { RiskProfile } from '@vigil/contracts';

/**
 * A framework as the library ships it or an OSCAL catalog yields it, before an organisation adopts
 * it: nested sections holding controls.
 */
export interface FrameworkTemplate {
  name: string;
  version: string;
  description: string;
  /** Maturity tiers from lowest to highest; empty when the framework has none. */
  tiers: string[];
  sections: TemplateSection[];
  riskProfile: RiskProfile | null;
}

export interface TemplateSection {
  ref: string;
  title: string;
  description: string;
  sections: TemplateSection[];
  controls: TemplateControl[];
}

export interface TemplateControl {
  ref: string;
  title: string;
  statement: string;
  examples: string[];
  mandatory: boolean;
}

/** Every section of a template, depth first, with its parent's ref. */
export function* walkSections(
  sections: TemplateSection[],
  parentRef: string | null = null,
): Generator<{ section: TemplateSection; parentRef: string | null }> {
  for (const section of sections) {
    yield { section, parentRef };
    yield* walkSections(section.sections, section.ref);
  }
}

export function countTemplate(template: FrameworkTemplate): { sections: number; controls: number } {
  let sections = 0;
  let controls = 0;
  for (const { section } of walkSections(template.sections)) {
    sections++;
    controls += section.controls.length;
  }
  return { sections, controls };
}
