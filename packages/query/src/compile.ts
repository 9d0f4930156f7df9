/**
 * Compiler of the event query language to a parameterised PostgreSQL condition (PostgreSQL 15 and
 * later, and PGlite). User text only ever travels as a parameter: the SQL text is made of fixed
 * keywords and functions, the trusted expressions of the schema and `$n` placeholders, numbered in
 * the order they appear. Every value is checked before it is cast, so a compiled condition never
 * fails at run time, and it is never NULL (each leaf is written to be TRUE or FALSE even on NULL
 * columns), so callers may negate it (`NOT (…)`) and AND it with data restrictions safely.
 *
 * Semantics, per term (a field that is an alias applies the term to each of its fields and ORs them):
 *
 * Free text (no field)
 * - `word` → `search @@ plainto_tsquery(config, $n)`: the words of the term among the message and
 *   field values (the tsvector's configuration, `simple`: case-insensitive, no stemming).
 * - `"a phrase"` → `search @@ phraseto_tsquery(config, $n)`: the words in this order.
 * - `fail*ed` (wildcards) → `message ILIKE '%fail%ed%'`: the pattern anywhere in the message,
 *   case-insensitive. Terms made only of wildcards are refused by the parser.
 *
 * `field:value` on a text column
 * - unquoted word: case-insensitive equality with the whole value, `lower(col) = lower($n)` (an index
 *   on `lower(col)` serves it); quoted: exact, case-sensitive equality `col = $n`.
 * - wildcards: `col ILIKE $n`, `*` → `%`, `?` → `_`, with `%`, `_` and `\` of the value escaped.
 * `field:value` on an inet column
 * - an address (`10.0.0.1`, `fe80::1`, quoted or not): equality; a network (`"10.0.0.0/8"`):
 *   `col <<= $n::inet`; wildcards: `host(col) ILIKE $n` (`ip:10.1.*`); anything else matches nothing.
 * `field:value` on a timestamp column
 * - a date (`2024-05-01`): that whole UTC day; a date-time (`2024-05-01T10:00:00Z`, no offset = UTC):
 *   that instant; anything else matches nothing.
 * `field:value` on a number column: numeric equality; wildcards on the number's text.
 * `field:value` on any other field: the jsonb column by path (`a.b` → `{"a":{"b":…}}`), the path
 *   always a parameter.
 * - no wildcards, quoted or not: containment `fields @> $n::jsonb` (served by the GIN index on
 *   `fields jsonb_path_ops`), exact and case-sensitive, matching the value as a string or as an
 *   element of an array of strings; a numeric-looking value (`200`, `1.5`) also matches the JSON
 *   number, and `true`/`false` the JSON boolean.
 * - wildcards: `fields #>> $path ILIKE $n` (scalar values only).
 * `field:*` (only `*` wildcards) on any field: the field is present, as `_exists_:field`.
 *
 * Ranges `[a TO b]` (inclusive), `{a TO b}` (exclusive), mixed, `*` open ends; comparisons `field:>a`,
 * `>=`, `<`, `<=` are ranges with one open end; `[* TO *]` is `_exists_`.
 * - bounds that are all numbers: numeric comparison. On text columns and jsonb fields only values
 *   that read as plain decimals (`-12.5`, or JSON numbers) are compared, through a guarded cast
 *   `CASE WHEN x ~ '^-?[0-9]{1,100}([.][0-9]{1,100})?$' THEN x::numeric … ELSE FALSE END`.
 * - timestamp columns: bounds must be ISO dates or date-times; a date-only bound covers its whole
 *   day (`[2024-05-01 TO 2024-05-31]` ends at the last instant of 31 May, `>2024-05-01` starts on
 *   2 May); other bounds match nothing.
 * - inet columns: bounds must be addresses (inet order); number columns: numbers; else nothing.
 * - otherwise: text comparison in the database collation (ISO dates in jsonb compare correctly).
 *
 * `_exists_:field` → `col IS NOT NULL`; on jsonb, the path holds a value other than JSON null.
 *
 * `a AND b`, `a b` → `(a) AND (b)`; `a OR b` → `(a) OR (b)`; `NOT a`, `-a` → `NOT (a)`. The empty
 * query → `TRUE`.
 */
import { parseQuery, type MatchValue, type QueryAst, type RangeBound, type RangeValue } from './parse';
import type { EventColumn, EventSchema } from './schema';
import { isNumber, jsonNumber, likePattern, parseAddress, parseInstant } from './values';

export interface CompiledQuery {
  /** SQL condition with `$n` placeholders; user text never appears in it. */
  sql: string;
  params: unknown[];
}

export interface CompileOptions {
  /** Number of the first placeholder, to append the condition to SQL that has parameters already. */
  firstParam?: number;
}

/** A query that matches every event: the neutral element of AND. */
export const MATCH_ALL: CompiledQuery = { sql: 'TRUE', params: [] };

/** Plain decimals, the only text cast to numeric; bounded so that the cast cannot overflow. */
const DECIMAL_TEXT = `'^-?[0-9]{1,100}([.][0-9]{1,100})?$'`;

/** NUL and unpaired surrogates: no stored event holds them and PostgreSQL refuses them as input. */
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

type Target = { kind: 'column'; column: EventColumn } | { kind: 'field'; path: string[] };

const FALSE = 'FALSE';

class Compiler {
  readonly params: unknown[] = [];

  constructor(
    private readonly schema: EventSchema,
    private readonly firstParam: number,
  ) {}

  /** The placeholder of a new parameter; call in the order the placeholders appear in the SQL. */
  private param(value: unknown): string {
    this.params.push(value);
    return `$${this.firstParam + this.params.length - 1}`;
  }

  node(ast: QueryAst): string {
    switch (ast.type) {
      case 'all':
        return 'TRUE';
      case 'and':
      case 'or':
        if (ast.children.length === 0) return ast.type === 'and' ? 'TRUE' : FALSE;
        return ast.children
          .map((child) => `(${this.node(child)})`)
          .join(ast.type === 'and' ? ' AND ' : ' OR ');
      case 'not':
        return `NOT (${this.node(ast.operand)})`;
      case 'exists':
        return this.anyTarget(ast.field, (target) => this.exists(target));
      case 'term': {
        const { field, value } = ast;
        if (field === null) return value.kind === 'match' ? this.freeText(value) : FALSE;
        if (value.kind === 'range') return this.anyTarget(field, (target) => this.range(target, value));
        if (
          value.pattern?.length &&
          value.pattern.every((part) => 'wildcard' in part && part.wildcard === '*')
        ) {
          return this.anyTarget(field, (target) => this.exists(target));
        }
        return this.anyTarget(field, (target) => this.match(target, value));
      }
    }
  }

  private targets(name: string): Target[] {
    const { columns, aliases } = this.schema;
    const resolve = (field: string): Target =>
      Object.hasOwn(columns, field)
        ? { kind: 'column', column: columns[field]! }
        : { kind: 'field', path: field.split('.') };
    if (Object.hasOwn(columns, name)) return [resolve(name)];
    if (Object.hasOwn(aliases, name)) return aliases[name]!.map(resolve);
    return [resolve(name)];
  }

  private anyTarget(field: string, compile: (target: Target) => string): string {
    if (UNSTORABLE.test(field)) return FALSE;
    const parts = this.targets(field).map(compile);
    if (parts.length === 0) return FALSE;
    return parts.length === 1 ? parts[0]! : parts.map((part) => `(${part})`).join(' OR ');
  }

  private fields(): string {
    return this.schema.fieldsColumn;
  }

  /** The field's value as jsonb (`#>`) or text (`#>>`), its path a parameter. */
  private path(path: string[], operator: '#>' | '#>>'): string {
    return `(${this.fields()} ${operator} ${this.param(path)}::text[])`;
  }

  private exists(target: Target): string {
    if (target.kind === 'column') return `${target.column.sql} IS NOT NULL`;
    return `COALESCE(jsonb_typeof(${this.path(target.path, '#>')}) <> 'null', FALSE)`;
  }

  private freeText(value: MatchValue): string {
    if (UNSTORABLE.test(value.text)) return FALSE;
    const { vector, message, config } = this.schema.textSearch;
    if (value.pattern)
      return `COALESCE(${message} ILIKE ${this.param(`%${likePattern(value.pattern)}%`)}, FALSE)`;
    const query = value.quoted ? 'phraseto_tsquery' : 'plainto_tsquery';
    return `${vector} IS NOT NULL AND ${vector} @@ ${query}('${config}', ${this.param(value.text)})`;
  }

  private match(target: Target, value: MatchValue): string {
    if (UNSTORABLE.test(value.text)) return FALSE;
    if (target.kind === 'field') return this.matchField(target.path, value);
    const { sql, type } = target.column;
    const { text, pattern } = value;
    if (pattern) {
      const like = likePattern(pattern);
      switch (type) {
        case 'text':
          return `COALESCE(${sql} ILIKE ${this.param(like)}, FALSE)`;
        case 'inet':
          return `COALESCE(host(${sql}) ILIKE ${this.param(like)}, FALSE)`;
        case 'number':
          return `COALESCE((${sql})::text ILIKE ${this.param(like)}, FALSE)`;
        case 'timestamp':
          return FALSE;
      }
    }
    switch (type) {
      case 'text':
        return value.quoted
          ? `${sql} IS NOT NULL AND ${sql} = ${this.param(text)}`
          : `${sql} IS NOT NULL AND lower(${sql}) = lower(${this.param(text)})`;
      case 'inet': {
        const address = parseAddress(text);
        if (!address) return FALSE;
        const operator = address.kind === 'network' ? '<<=' : '=';
        return `${sql} IS NOT NULL AND ${sql} ${operator} ${this.param(text)}::inet`;
      }
      case 'timestamp': {
        const instant = parseInstant(text);
        if (!instant) return FALSE;
        if (instant.end === null)
          return `${sql} IS NOT NULL AND ${sql} = ${this.param(instant.start)}::timestamptz`;
        return (
          `${sql} IS NOT NULL AND ${sql} >= ${this.param(instant.start)}::timestamptz` +
          ` AND ${sql} < ${this.param(instant.end)}::timestamptz`
        );
      }
      case 'number':
        if (!isNumber(text)) return FALSE;
        return `${sql} IS NOT NULL AND ${sql} = ${this.param(text)}::numeric`;
    }
  }

  private matchField(path: string[], value: MatchValue): string {
    const fields = this.fields();
    if (value.pattern) {
      return `COALESCE(${this.path(path, '#>>')} ILIKE ${this.param(likePattern(value.pattern))}, FALSE)`;
    }
    const literals = [JSON.stringify(value.text)];
    if (isNumber(value.text)) literals.push(jsonNumber(value.text));
    if (value.text === 'true' || value.text === 'false') literals.push(value.text);
    const documents = literals
      .flatMap((literal) => [literal, `[${literal}]`])
      .map((leaf) => nest(path, leaf));
    const contains = documents.map((document) => `${fields} @> ${this.param(document)}::jsonb`).join(' OR ');
    return `${fields} IS NOT NULL AND (${contains})`;
  }

  private range(target: Target, range: RangeValue): string {
    const { lower, upper } = range;
    if (!lower && !upper) return this.exists(target);
    const bounds = [lower, upper].filter((bound): bound is RangeBound => bound !== null);
    if (bounds.some((bound) => UNSTORABLE.test(bound.value))) return FALSE;
    const numeric = bounds.every((bound) => isNumber(bound.value));
    if (target.kind === 'field') {
      // Each use of the path takes a parameter of its own, so placeholders appear once each, in order.
      if (numeric) {
        const check = this.path(target.path, '#>>');
        const number = () => `${this.path(target.path, '#>>')}::numeric`;
        return `CASE WHEN ${check} ~ ${DECIMAL_TEXT} THEN ${this.compareEach(number, range, '::numeric')} ELSE FALSE END`;
      }
      const text = () => this.path(target.path, '#>>');
      return `COALESCE(${this.compareEach(text, range, '')}, FALSE)`;
    }
    const { sql, type } = target.column;
    switch (type) {
      case 'text':
        if (numeric) {
          return `CASE WHEN ${sql} ~ ${DECIMAL_TEXT} THEN ${this.compare(`(${sql})::numeric`, range, '::numeric')} ELSE FALSE END`;
        }
        return `${sql} IS NOT NULL AND ${this.compare(sql, range, '')}`;
      case 'number':
        if (!numeric) return FALSE;
        return `${sql} IS NOT NULL AND ${this.compare(sql, range, '::numeric')}`;
      case 'inet':
        if (!bounds.every((bound) => parseAddress(bound.value)?.kind === 'address')) return FALSE;
        return `${sql} IS NOT NULL AND ${this.compare(sql, range, '::inet')}`;
      case 'timestamp':
        return this.timestampRange(sql, range);
    }
  }

  /** `x >= $a::cast AND x <= $b::cast` for the bounds present. */
  private compare(expression: string, range: RangeValue, cast: string): string {
    return this.compareEach(() => expression, range, cast);
  }

  private compareEach(expression: () => string, { lower, upper }: RangeValue, cast: string): string {
    const parts: string[] = [];
    if (lower)
      parts.push(`${expression()} ${lower.inclusive ? '>=' : '>'} ${this.param(lower.value)}${cast}`);
    if (upper)
      parts.push(`${expression()} ${upper.inclusive ? '<=' : '<'} ${this.param(upper.value)}${cast}`);
    return parts.join(' AND ');
  }

  private timestampRange(sql: string, { lower, upper }: RangeValue): string {
    const low = lower && parseInstant(lower.value);
    const high = upper && parseInstant(upper.value);
    if ((lower && !low) || (upper && !high)) return FALSE;
    const parts = [`${sql} IS NOT NULL`];
    if (lower && low) {
      // A date-only lower bound: from the start of the day, or (exclusive) from the start of the next.
      const [operator, at] =
        low.end === null
          ? [lower.inclusive ? '>=' : '>', low.start]
          : ['>=', lower.inclusive ? low.start : low.end];
      parts.push(`${sql} ${operator} ${this.param(at)}::timestamptz`);
    }
    if (upper && high) {
      // A date-only upper bound: to the end of the day, or (exclusive) to its start.
      const [operator, at] =
        high.end === null
          ? [upper.inclusive ? '<=' : '<', high.start]
          : ['<', upper.inclusive ? high.end : high.start];
      parts.push(`${sql} ${operator} ${this.param(at)}::timestamptz`);
    }
    return parts.join(' AND ');
  }
}

/** `{"a":{"b":leaf}}` for the path `a.b`, keys JSON-escaped. */
function nest(path: readonly string[], leaf: string): string {
  return path.reduceRight((inner, key) => `{${JSON.stringify(key)}:${inner}}`, leaf);
}

/**
 * Compiles a query (text, parsed here, or a syntax tree from `parseQuery`) to a SQL condition on the
 * events table described by `schema`. Throws QueryParseError for text the language refuses.
 */
export function compileQuery(
  query: string | QueryAst,
  schema: EventSchema,
  options: CompileOptions = {},
): CompiledQuery {
  const firstParam = options.firstParam ?? 1;
  if (!Number.isSafeInteger(firstParam) || firstParam < 1)
    throw new RangeError('firstParam must be a positive integer');
  if (!/^[a-z_][a-z0-9_]*$/.test(schema.textSearch.config)) {
    throw new Error(`Not a text search configuration name: ${schema.textSearch.config}`);
  }
  const ast = typeof query === 'string' ? parseQuery(query) : query;
  const compiler = new Compiler(schema, firstParam);
  const sql = compiler.node(ast);
  // Parenthesised, so that callers can write `… AND ${sql}` whatever the condition holds.
  return { sql: sql === 'TRUE' || sql === FALSE ? sql : `(${sql})`, params: compiler.params };
}
