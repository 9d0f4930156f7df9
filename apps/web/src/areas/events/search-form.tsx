import { Select, TextInput } from '@mantine/core';
import { SEARCH_INTERVAL_TYPES, type SearchIntervalType } from '@vigil/contracts';
import { validateQuery } from '@vigil/query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../lib/api';
import type { QuerySyntaxError } from './query-bar';
import {
  DEFAULT_INTERVAL_TYPE,
  fromLocalInput,
  hasAbsoluteRange,
  toLocalInput,
  type EventSearch,
} from './search-params';

/*
 * What the event search pages share: the query box and absolute range as drafts until the search runs
 * (the address holds the search), and the range controls.
 */

type SearchAddress = Pick<EventSearch, 'query' | 'begin' | 'end' | 'intervalType'>;

/** The Select value standing for an explicit begin…end range. */
const CUSTOM = 'CUSTOM';

/** A server refusal of the query, with the position of the fault, as the query bar shows it. */
export function serverSyntaxError(error: unknown, query: string): QuerySyntaxError | null {
  if (!(error instanceof ApiRequestError) || error.error.key !== 'SEARCH_INVALID_QUERY') return null;
  const position = Number(error.error.params?.position ?? 0);
  return {
    message: String(error.error.params?.message ?? error.error.message),
    position: Number.isFinite(position) ? position : 0,
    query,
  };
}

export interface SearchDrafts {
  typed: string;
  setTyped: (value: string) => void;
  draftBegin: string;
  setDraftBegin: (value: string) => void;
  draftEnd: string;
  setDraftEnd: (value: string) => void;
  syntaxError: QuerySyntaxError | null;
  setSyntaxError: (error: QuerySyntaxError | null) => void;
  /**
   * Checks the typed query and, when it parses, puts it and the drafted range in the address. Answers
   * the change, `same` when it changes nothing (a refresh), or null when the query is refused.
   */
  run: () => { patch: SearchAddress; same: boolean } | null;
  /** Chooses a preset range, dropping any absolute one. */
  choosePreset: (intervalType: SearchIntervalType) => void;
}

export function useSearchDrafts<S extends SearchAddress>(
  search: S,
  update: (patch: Partial<S>) => void,
): SearchDrafts {
  const [typed, setTypedState] = useState(search.query ?? '');
  const [draftBegin, setDraftBegin] = useState(toLocalInput(search.begin));
  const [draftEnd, setDraftEnd] = useState(toLocalInput(search.end));
  const [addressState, setAddressState] = useState(search);
  const [syntaxError, setSyntaxError] = useState<QuerySyntaxError | null>(null);
  // The address changed elsewhere (a link, back, a pivot): the drafts follow it.
  if (addressState !== search) {
    setAddressState(search);
    if (addressState.query !== search.query) setTypedState(search.query ?? '');
    if (addressState.begin !== search.begin) setDraftBegin(toLocalInput(search.begin));
    if (addressState.end !== search.end) setDraftEnd(toLocalInput(search.end));
  }

  const run = () => {
    const query = typed.trim();
    const validation = validateQuery(query);
    if (!validation.valid) {
      setSyntaxError({ message: validation.message, position: validation.position, query });
      return null;
    }
    setSyntaxError(null);
    const range: SearchAddress = {};
    if (draftBegin !== toLocalInput(search.begin) || draftEnd !== toLocalInput(search.end)) {
      const begin = fromLocalInput(draftBegin);
      const end = fromLocalInput(draftEnd, true);
      if (begin && end) Object.assign(range, { begin, end, intervalType: undefined });
      else Object.assign(range, { begin: undefined, end: undefined });
    }
    const patch = { ...range, query: query || undefined };
    update(patch as Partial<S>);
    return { patch, same: query === (search.query ?? '') && Object.keys(range).length === 0 };
  };

  const choosePreset = (intervalType: SearchIntervalType) => {
    setDraftBegin('');
    setDraftEnd('');
    update({
      intervalType: intervalType === DEFAULT_INTERVAL_TYPE ? undefined : intervalType,
      begin: undefined,
      end: undefined,
    } as Partial<S>);
  };

  return {
    typed,
    setTyped: (value) => {
      setTypedState(value);
      if (syntaxError) setSyntaxError(null);
    },
    draftBegin,
    setDraftBegin,
    draftEnd,
    setDraftEnd,
    syntaxError,
    setSyntaxError,
    run,
    choosePreset,
  };
}

/** The range preset (or "custom" while an absolute range is set) and the absolute begin and end. */
export function SearchRangeControls({ search, drafts }: { search: SearchAddress; drafts: SearchDrafts }) {
  const { t } = useTranslation();
  const rangeValue = hasAbsoluteRange(search) ? CUSTOM : (search.intervalType ?? DEFAULT_INTERVAL_TYPE);
  return (
    <>
      <Select
        label={t('events.range.label')}
        data={[
          ...SEARCH_INTERVAL_TYPES.map((value) => ({ value, label: t(`events.range.presets.${value}`) })),
          ...(rangeValue === CUSTOM ? [{ value: CUSTOM, label: t('events.range.custom') }] : []),
        ]}
        value={rangeValue}
        allowDeselect={false}
        w={170}
        onChange={(value) => {
          if (value && value !== CUSTOM) drafts.choosePreset(value as SearchIntervalType);
        }}
      />
      <TextInput
        type="datetime-local"
        label={t('events.range.begin')}
        value={drafts.draftBegin}
        max={drafts.draftEnd || undefined}
        onChange={(event) => drafts.setDraftBegin(event.currentTarget.value)}
        w={210}
      />
      <TextInput
        type="datetime-local"
        label={t('events.range.end')}
        value={drafts.draftEnd}
        min={drafts.draftBegin || undefined}
        onChange={(event) => drafts.setDraftEnd(event.currentTarget.value)}
        w={210}
      />
    </>
  );
}
