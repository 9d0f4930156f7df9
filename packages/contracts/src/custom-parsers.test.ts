import { describe, expect, it } from 'vitest';
import { fromFieldProblem, mappingProblems, toFieldProblem } from './custom-parsers';

describe('custom parser field rules', () => {
  it('takes from-fields of letters, digits, underscores and spaces in period-separated parts', () => {
    for (const from of ['src', 'source address', 'user.name', 'a_1.B 2.c', 'event.id']) {
      expect(fromFieldProblem(from), from).toBeNull();
    }
    for (const from of ['src-ip', 'a..b', '.a', 'a.', ' a', 'a .b', 'a. b', 'é', 'a/b']) {
      expect(fromFieldProblem(from), from).toBe('CUSTOM_PARSER_INVALID_FROM_FIELD');
    }
    expect(fromFieldProblem('')).toBe('CUSTOM_PARSER_FIELD_REQUIRED');
  });

  it('takes to-fields without periods or spaces, and not the names the event keeps', () => {
    for (const to of ['src_ip', 'host', 'message', 'duration_seconds', 'Host']) {
      expect(toFieldProblem(to), to).toBeNull();
    }
    for (const to of ['a.b', 'src ip', 'src-ip'])
      expect(toFieldProblem(to), to).toBe('CUSTOM_PARSER_INVALID_TO_FIELD');
    for (const to of ['ts', 'received_at', 'id', 'data_source', 'ip', 'timestamp', 'user']) {
      expect(toFieldProblem(to), to).toBe('CUSTOM_PARSER_RESERVED_TO_FIELD');
    }
    expect(toFieldProblem('')).toBe('CUSTOM_PARSER_FIELD_REQUIRED');
  });

  it('lists every problem of a parser in row order, a repeated to-field at its later rows', () => {
    expect(
      mappingProblems([
        { from: 'a', to: 'x' },
        { from: 'b-c', to: 'y.z' },
        { from: 'd', to: 'x' },
        { from: 'e', to: 'x' },
      ]),
    ).toEqual([
      { index: 1, side: 'from', key: 'CUSTOM_PARSER_INVALID_FROM_FIELD' },
      { index: 1, side: 'to', key: 'CUSTOM_PARSER_INVALID_TO_FIELD' },
      { index: 2, side: 'to', key: 'CUSTOM_PARSER_DUPLICATE_TO_FIELD' },
      { index: 3, side: 'to', key: 'CUSTOM_PARSER_DUPLICATE_TO_FIELD' },
    ]);
    expect(mappingProblems([{ from: 'a', to: 'x' }])).toEqual([]);
  });
});
