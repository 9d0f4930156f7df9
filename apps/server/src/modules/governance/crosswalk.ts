import { readFileSync } from 'node:fs';
import type { ControlAnswerStatus } from '@vigil/contracts';

/** The crosswalk to CSF 2.0 (CROSSWALK_TARGET) from the library frameworks of CROSSWALK_SOURCES. */
interface CrosswalkFile {
  /**
   * Per source library framework, its items mapped to target control refs: `control` maps controls by
   * ref; `component` maps a CAT component (a section), answered by its Baseline control (ref `<component>.B`).
   */
  sources: Record<string, { by: 'control' | 'component'; map: Record<string, string[]> }>;
}

const crosswalk = JSON.parse(
  readFileSync(new URL('./catalogs/crosswalk.json', import.meta.url), 'utf8'),
) as CrosswalkFile;

/** The library frameworks the crosswalk reads answers from. */
export const crosswalkSources = () => Object.keys(crosswalk.sources);

/** Weakest first: a target control is suggested no better than the weakest answer mapped to it. */
const STRENGTH: Record<ControlAnswerStatus, number> = {
  NOT_IMPLEMENTED: 0,
  PARTIALLY_IMPLEMENTED: 1,
  IMPLEMENTED: 2,
  NOT_APPLICABLE: 3,
};

export interface Suggestion {
  status: ControlAnswerStatus;
  /** The source refs it was made from. */
  from: string[];
}

/**
 * The answers of a source framework's period carried to the target framework's control refs: each
 * target ref gets the weakest of the answers mapped to it (N/A only when all of them are N/A).
 */
export function crosswalkSuggestions(
  sourceKey: string,
  answers: { ref: string; status: ControlAnswerStatus }[],
): Map<string, Suggestion> {
  const source = crosswalk.sources[sourceKey];
  const suggestions = new Map<string, Suggestion>();
  if (!source) return suggestions;
  for (const { ref, status } of answers) {
    const key = source.by === 'component' ? (ref.endsWith('.B') ? ref.slice(0, -2) : null) : ref;
    if (key === null) continue;
    for (const target of source.map[key] ?? []) {
      const current = suggestions.get(target);
      if (!current) {
        suggestions.set(target, { status, from: [ref] });
        continue;
      }
      current.from.push(ref);
      if (STRENGTH[status] < STRENGTH[current.status]) current.status = status;
    }
  }
  return suggestions;
}
