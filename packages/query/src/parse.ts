/**
 * Parser of the event query language (DESIGN section 5, spec 3 section 5): a Lucene-like syntax read
 * by hand, without dependencies, so that it runs in the browser as well as on the server.
 *
 * Grammar (precedence from loosest to tightest: OR, then AND, explicit or implicit, then NOT and `-`):
 *
 *   query   := or?
 *   or      := and ("OR" and)*
 *   and     := unary (("AND")? unary)*          two terms side by side are ANDed
 *   unary   := ("NOT" | "-") unary | primary     `-` must touch its operand: `-host:x`
 *   primary := "(" or ")" | term
 *   term    := field ":" value | phrase | word   a phrase or word without a field is free text
 *   field   := word | phrase                     a quoted field name is taken literally
 *   value   := phrase | word | range | comparison | "(" or ")"
 *              (the parenthesised form is a field group: `host:(a OR b)`, each term inside applies
 *              to the field)
 *   range   := ("[" | "{") bound "TO" bound ("]" | "}")   `[`/`]` inclusive, `{`/`}` exclusive,
 *              `*` for an open end
 *   comparison := (">" | ">=" | "<" | "<=") (phrase | word)
 *   `_exists_:name` asks whether a field is present.
 *
 * Words run to the next blank or parenthesis (in a field name also to the colon, so values may hold
 * colons: `ip:fe80::1`, `ts:>=2024-05-01T10:00:00Z`). In words an unescaped `*` matches any run of
 * characters and `?` one character; a backslash takes the next character literally (`a\*b`, `a\ b`).
 * Phrases are quoted with `"` or `'`; inside them a backslash takes the next character literally and
 * `*`, `?` are ordinary characters. Keywords AND, OR, NOT and TO are upper case only.
 *
 * Refused, with the position of the fault: queries over QUERY_MAX_LENGTH characters, characters that
 * PostgreSQL cannot store (NUL, unpaired surrogates), terms made only of wildcards without a field
 * (`*`, `?*`, `*:*`; spec 3 section 5), regular expressions (`/.../`), wildcards in unquoted field names,
 * range bounds or comparisons, empty parentheses, and unbalanced quotes, brackets and parentheses.
 * Whatever this parser accepts, `compileQuery` can compile.
 */

/** Longest query text accepted (spec 3 sections 5 and 9). */
export const QUERY_MAX_LENGTH = 2048;

/** Field name segments (`a.b.c`) beyond which a field name is refused. */
export const QUERY_MAX_FIELD_DEPTH = 32;

/** A query the language does not accept; `position` is the zero-based offset of the problem. */
export class QueryParseError extends Error {
  override readonly name = 'QueryParseError';

  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
  }
}

/** Zero-based offsets into the query text, `end` exclusive. */
export interface QueryLocation {
  start: number;
  end: number;
}

/** A literal run of characters or a wildcard of a word value. */
export type PatternPart = { literal: string } | { wildcard: '*' | '?' };

/** `value`, `"a phrase"` or a word with wildcards. */
export interface MatchValue {
  kind: 'match';
  /** The value with escapes resolved; wildcards appear as their characters. */
  text: string;
  /** Written between quotes: an exact value or a phrase. */
  quoted: boolean;
  /** The parts of a word holding unescaped wildcards; null when the value has none. */
  pattern: PatternPart[] | null;
}

export interface RangeBound {
  value: string;
  inclusive: boolean;
}

/** `[a TO b]`, `{a TO b}` (either end may be open) or a comparison `>a`, `>=a`, `<b`, `<=b`. */
export interface RangeValue {
  kind: 'range';
  lower: RangeBound | null;
  upper: RangeBound | null;
}

export type TermValue = MatchValue | RangeValue;

export type QueryAst =
  | { type: 'all'; location: QueryLocation }
  | { type: 'and' | 'or'; children: QueryAst[]; location: QueryLocation }
  | { type: 'not'; operand: QueryAst; location: QueryLocation }
  /** `field` null: free text. */
  | { type: 'term'; field: string | null; value: TermValue; location: QueryLocation }
  | { type: 'exists'; field: string; location: QueryLocation };

export type QueryValidation = { valid: true } | { valid: false; message: string; position: number };

const ENDS_EARLY =
  'The query ends too early: close every quote, bracket and parenthesis, and give each operator its operands';

const isBlank = (char: string): boolean => /^\s$/u.test(char);

interface Word {
  raw: string;
  text: string;
  pattern: PatternPart[] | null;
  start: number;
}

type WordMode = 'field' | 'value' | 'bound';

class Parser {
  private pos = 0;

  constructor(private readonly text: string) {}

  parse(): QueryAst {
    this.skipBlanks();
    if (this.atEnd()) return { type: 'all', location: { start: 0, end: this.text.length } };
    const ast = this.parseOr(null);
    this.skipBlanks();
    if (!this.atEnd()) throw this.unexpected();
    return ast;
  }

  private atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  private peek(): string {
    return this.text.charAt(this.pos);
  }

  private skipBlanks(): void {
    while (!this.atEnd() && isBlank(this.peek())) this.pos += 1;
  }

  private endsEarly(): QueryParseError {
    return new QueryParseError(ENDS_EARLY, this.text.length);
  }

  /** The token at the cursor, named in the message with its one-based position. */
  private unexpected(at = this.pos): QueryParseError {
    if (at >= this.text.length) return this.endsEarly();
    const keyword = ['AND', 'OR', 'NOT', 'TO'].find((word) => this.keywordAt(word, at));
    const token = keyword ?? String.fromCodePoint(this.text.codePointAt(at) ?? 0);
    return new QueryParseError(`Unexpected "${token}" at position ${at + 1}`, at);
  }

  private keywordAt(keyword: string, at = this.pos): boolean {
    if (!this.text.startsWith(keyword, at)) return false;
    const next = this.text.charAt(at + keyword.length);
    return next === '' || isBlank(next) || next === '(' || next === ')';
  }

  private parseOr(group: string | null): QueryAst {
    this.skipBlanks();
    const start = this.pos;
    const children = [this.parseAnd(group)];
    for (;;) {
      this.skipBlanks();
      if (!this.keywordAt('OR')) break;
      this.pos += 2;
      children.push(this.parseAnd(group));
    }
    return children.length === 1
      ? children[0]!
      : { type: 'or', children, location: { start, end: this.pos } };
  }

  private parseAnd(group: string | null): QueryAst {
    this.skipBlanks();
    const start = this.pos;
    const children = [this.parseUnary(group)];
    for (;;) {
      this.skipBlanks();
      if (this.atEnd() || this.peek() === ')' || this.keywordAt('OR')) break;
      if (this.keywordAt('AND')) this.pos += 3;
      children.push(this.parseUnary(group));
    }
    return children.length === 1
      ? children[0]!
      : { type: 'and', children, location: { start, end: this.pos } };
  }

  private parseUnary(group: string | null): QueryAst {
    this.skipBlanks();
    if (this.atEnd()) throw this.endsEarly();
    const start = this.pos;
    if (this.keywordAt('NOT')) {
      this.pos += 3;
      const operand = this.parseUnary(group);
      return { type: 'not', operand, location: { start, end: this.pos } };
    }
    if (this.peek() === '-') {
      const next = this.text.charAt(this.pos + 1);
      if (next === '') throw this.endsEarly();
      if (isBlank(next) || next === ')') throw this.unexpected();
      this.pos += 1;
      const operand = this.parseUnary(group);
      return { type: 'not', operand, location: { start, end: this.pos } };
    }
    if (this.keywordAt('AND') || this.keywordAt('OR')) throw this.unexpected();
    return this.parsePrimary(group);
  }

  private parsePrimary(group: string | null): QueryAst {
    const char = this.peek();
    if (char === '(') return this.parseParenthesized(group);
    if (char === ')') throw this.unexpected();
    return this.parseTerm(group);
  }

  private parseParenthesized(group: string | null): QueryAst {
    this.pos += 1;
    this.skipBlanks();
    if (this.atEnd()) throw this.endsEarly();
    if (this.peek() === ')') throw this.unexpected();
    const inner = this.parseOr(group);
    this.skipBlanks();
    if (this.atEnd()) throw this.endsEarly();
    if (this.peek() !== ')') throw this.unexpected();
    this.pos += 1;
    return inner;
  }

  private parseTerm(group: string | null): QueryAst {
    const start = this.pos;
    if (group !== null) return this.parseValue(group, start);
    const char = this.peek();
    if (char === '"' || char === "'") {
      const phrase = this.readQuoted();
      if (this.peek() === ':') {
        this.pos += 1;
        return this.parseFieldValue(phrase, true, start);
      }
      return this.term(null, { kind: 'match', text: phrase, quoted: true, pattern: null }, start);
    }
    const word = this.readWord('field');
    if (word.raw === '') throw this.unexpected();
    if (this.peek() === ':') {
      if (word.pattern) {
        if (word.pattern.every((part) => 'wildcard' in part)) throw wildcardsOnly(start);
        throw new QueryParseError(
          'A field name cannot contain wildcards; quote the name to use * or ? in it',
          start,
        );
      }
      this.pos += 1;
      return this.parseFieldValue(word.text, false, start);
    }
    refuseRegex(word);
    if (word.pattern?.every((part) => 'wildcard' in part)) throw wildcardsOnly(start);
    return this.term(null, matchOf(word), start);
  }

  private term(field: string | null, value: TermValue, start: number): QueryAst {
    return { type: 'term', field, value, location: { start, end: this.pos } };
  }

  private parseFieldValue(field: string, quotedField: boolean, start: number): QueryAst {
    const char = this.peek();
    if (char === '' || isBlank(char) || char === ')') {
      throw new QueryParseError(`The field ${field} has no value`, this.pos);
    }
    if (field.split('.').length > QUERY_MAX_FIELD_DEPTH) {
      throw new QueryParseError(
        `The field name has more than ${QUERY_MAX_FIELD_DEPTH} levels of nesting`,
        start,
      );
    }
    if (!quotedField && field === '_exists_') return this.parseExists(start);
    if (char === '(') return this.parseParenthesized(field);
    return this.parseValue(field, start);
  }

  private parseExists(start: number): QueryAst {
    const char = this.peek();
    let name: string;
    if (char === '"' || char === "'") {
      name = this.readQuoted();
    } else {
      const word = this.readWord('value');
      if (word.raw === '' || word.pattern || /^[[{<>]/.test(word.raw)) {
        throw new QueryParseError('_exists_ takes one field name, without wildcards', word.start);
      }
      name = word.text;
    }
    if (name.split('.').length > QUERY_MAX_FIELD_DEPTH) {
      throw new QueryParseError(
        `The field name has more than ${QUERY_MAX_FIELD_DEPTH} levels of nesting`,
        start,
      );
    }
    return { type: 'exists', field: name, location: { start, end: this.pos } };
  }

  private parseValue(field: string, start: number): QueryAst {
    const char = this.peek();
    if (char === '>' || char === '<') return this.parseComparison(field, start);
    if (char === '[' || char === '{') return this.parseRange(field, start);
    if (char === '"' || char === "'") {
      const text = this.readQuoted();
      return this.term(field, { kind: 'match', text, quoted: true, pattern: null }, start);
    }
    const word = this.readWord('value');
    if (word.raw === '') throw this.unexpected();
    refuseRegex(word);
    return this.term(field, matchOf(word), start);
  }

  private parseComparison(field: string, start: number): QueryAst {
    const operator =
      this.text.charAt(this.pos + 1) === '=' ? this.text.slice(this.pos, this.pos + 2) : this.peek();
    this.pos += operator.length;
    const char = this.peek();
    if (char === '' || isBlank(char) || char === ')') {
      throw new QueryParseError(`The field ${field} has no value`, this.pos);
    }
    const value = this.readBoundValue('value', 'A comparison takes one value, without wildcards');
    if (value === null) {
      throw new QueryParseError('A comparison takes one value, without wildcards', this.pos - 1);
    }
    const bound = { value, inclusive: operator.endsWith('=') };
    const range: RangeValue = operator.startsWith('>')
      ? { kind: 'range', lower: bound, upper: null }
      : { kind: 'range', lower: null, upper: bound };
    return this.term(field, range, start);
  }

  private parseRange(field: string, start: number): QueryAst {
    const lowerInclusive = this.peek() === '[';
    this.pos += 1;
    this.skipBlanks();
    const lower = this.readBoundValue('bound', 'Range bounds cannot contain wildcards');
    this.skipBlanks();
    if (this.atEnd()) throw this.endsEarly();
    if (!this.keywordAt('TO')) throw this.unexpected();
    this.pos += 2;
    this.skipBlanks();
    const upper = this.readBoundValue('bound', 'Range bounds cannot contain wildcards');
    this.skipBlanks();
    if (this.atEnd()) throw this.endsEarly();
    const close = this.peek();
    if (close !== ']' && close !== '}') throw this.unexpected();
    this.pos += 1;
    const range: RangeValue = {
      kind: 'range',
      lower: lower === null ? null : { value: lower, inclusive: lowerInclusive },
      upper: upper === null ? null : { value: upper, inclusive: close === ']' },
    };
    return this.term(field, range, start);
  }

  /** A range bound or comparison value; null for the open bound `*`. */
  private readBoundValue(mode: WordMode, wildcardMessage: string): string | null {
    if (this.atEnd()) throw this.endsEarly();
    const char = this.peek();
    if (char === '"' || char === "'") return this.readQuoted();
    const word = this.readWord(mode);
    if (word.raw === '') throw this.unexpected();
    if (mode === 'bound' && word.raw === '*') return null;
    if (word.pattern) throw new QueryParseError(wildcardMessage, word.start);
    return word.text;
  }

  private readQuoted(): string {
    const quote = this.peek();
    this.pos += 1;
    let value = '';
    for (;;) {
      if (this.atEnd()) throw this.endsEarly();
      const char = this.peek();
      if (char === '\\') {
        if (this.pos + 1 >= this.text.length) throw this.endsEarly();
        value += this.text.charAt(this.pos + 1);
        this.pos += 2;
      } else if (char === quote) {
        this.pos += 1;
        return value;
      } else {
        value += char;
        this.pos += 1;
      }
    }
  }

  private readWord(mode: WordMode): Word {
    const start = this.pos;
    let text = '';
    let literal = '';
    const parts: PatternPart[] = [];
    let wildcards = false;
    while (!this.atEnd()) {
      const char = this.peek();
      if (isBlank(char) || char === '(' || char === ')') break;
      if (mode === 'field' && char === ':') break;
      if (mode === 'bound' && (char === ']' || char === '}')) break;
      if (char === '\\') {
        if (this.pos + 1 >= this.text.length) throw this.endsEarly();
        const escaped = this.text.charAt(this.pos + 1);
        text += escaped;
        literal += escaped;
        this.pos += 2;
        continue;
      }
      if (char === '*' || char === '?') {
        if (literal) parts.push({ literal });
        literal = '';
        parts.push({ wildcard: char });
        wildcards = true;
      } else {
        literal += char;
      }
      text += char;
      this.pos += 1;
    }
    if (literal) parts.push({ literal });
    return { raw: this.text.slice(start, this.pos), text, pattern: wildcards ? parts : null, start };
  }
}

function matchOf(word: Word): MatchValue {
  return { kind: 'match', text: word.text, quoted: false, pattern: word.pattern };
}

function wildcardsOnly(position: number): QueryParseError {
  return new QueryParseError(
    'Queries made only of wildcards are not allowed: give a field or more characters',
    position,
  );
}

function refuseRegex(word: Word): void {
  if (word.raw.length >= 2 && word.raw.startsWith('/') && word.raw.endsWith('/')) {
    throw new QueryParseError(
      'Regular expressions are not supported: use the wildcards * and ?, or quote the value',
      word.start,
    );
  }
}

/** NUL and unpaired surrogates cannot be stored in PostgreSQL text or jsonb, so no event holds them. */
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Parses the event query language into its syntax tree, or throws QueryParseError with the position
 * of the fault. The empty (or blank) query parses to `{ type: 'all' }`.
 */
export function parseQuery(text: string): QueryAst {
  if (text.length > QUERY_MAX_LENGTH) {
    throw new QueryParseError(`The query is longer than ${QUERY_MAX_LENGTH} characters`, QUERY_MAX_LENGTH);
  }
  const unstorable = UNSTORABLE.exec(text);
  if (unstorable) {
    throw new QueryParseError(
      `The query holds a character that cannot be searched at position ${unstorable.index + 1}`,
      unstorable.index,
    );
  }
  return new Parser(text).parse();
}

/** Whether `text` is a query the language accepts, with the parser's reason when it is not. */
export function validateQuery(text: string): QueryValidation {
  try {
    parseQuery(text);
    return { valid: true };
  } catch (error) {
    if (error instanceof QueryParseError) {
      return { valid: false, message: error.message, position: error.position };
    }
    throw error;
  }
}
