import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compileQuery,
  DEFAULT_EVENT_SCHEMA,
  parseQuery,
  qualifyEventSchema,
  QueryParseError,
  type QueryAst,
} from './index';
import { evaluate, matching, openEventsDatabase, type EventsDatabase } from './test/events-database';

let db: EventsDatabase;

beforeAll(async () => {
  db = await openEventsDatabase();
});

afterAll(async () => {
  await db?.close();
});

/** The events a user would see for `query` (see EVENTS in test/events-database.ts). */
async function search(query: string): Promise<string[]> {
  const { sql, params } = compileQuery(query, DEFAULT_EVENT_SCHEMA);
  const values = await evaluate(db, sql, params);
  expect(
    values.filter((row) => row.matched === null),
    `${query} is NULL for some events`,
  ).toEqual([]);
  return matching(db, sql, params);
}

describe('compileQuery: shape of the SQL', () => {
  it('compiles the empty query to TRUE', () => {
    expect(compileQuery('', DEFAULT_EVENT_SCHEMA)).toEqual({ sql: 'TRUE', params: [] });
    expect(compileQuery('   ', DEFAULT_EVENT_SCHEMA)).toEqual({ sql: 'TRUE', params: [] });
  });

  it('keeps values in parameters, numbered from firstParam', () => {
    expect(compileQuery('host:web01 OR "wire transfer"', DEFAULT_EVENT_SCHEMA, { firstParam: 3 })).toEqual({
      sql:
        '((host IS NOT NULL AND lower(host) = lower($3)) OR ' +
        "(search IS NOT NULL AND search @@ phraseto_tsquery('simple', $4)))",
      params: ['web01', 'wire transfer'],
    });
  });

  it('addresses other fields through the jsonb column by a path parameter', () => {
    expect(compileQuery('http.method:POST', DEFAULT_EVENT_SCHEMA)).toEqual({
      sql: '(fields IS NOT NULL AND (fields @> $1::jsonb OR fields @> $2::jsonb))',
      params: ['{"http":{"method":"POST"}}', '{"http":{"method":["POST"]}}'],
    });
    expect(compileQuery('_exists_:http.method', DEFAULT_EVENT_SCHEMA)).toEqual({
      sql: "(COALESCE(jsonb_typeof((fields #> $1::text[])) <> 'null', FALSE))",
      params: [['http', 'method']],
    });
  });

  it('accepts a syntax tree as well as text', () => {
    const ast = parseQuery('NOT user:bob');
    expect(compileQuery(ast, DEFAULT_EVENT_SCHEMA)).toEqual(
      compileQuery('NOT user:bob', DEFAULT_EVENT_SCHEMA),
    );
  });

  it('uses the column expressions of the schema it is given', () => {
    const { sql } = compileQuery('host:a AND id:b AND x:1', qualifyEventSchema(DEFAULT_EVENT_SCHEMA, 'e'));
    expect(sql).toContain('lower(e.host)');
    expect(sql).toContain('lower(e.id::text)');
    expect(sql).toContain('e.fields @>');
  });

  it('compiles hand-built trees safely, even ones the parser would not produce', async () => {
    const location = { start: 0, end: 0 };
    const schema = { ...DEFAULT_EVENT_SCHEMA, aliases: { nothing: [] } };
    const trees: QueryAst[] = [
      { type: 'and', children: [], location },
      { type: 'or', children: [], location },
      { type: 'exists', field: 'nothing', location },
      {
        type: 'term',
        field: 'host',
        value: { kind: 'match', text: 'a\u0000b', quoted: true, pattern: null },
        location,
      },
      {
        type: 'term',
        field: 'x\uD800',
        value: { kind: 'match', text: 'a', quoted: false, pattern: null },
        location,
      },
      { type: 'term', field: null, value: { kind: 'range', lower: null, upper: null }, location },
      {
        type: 'term',
        field: 'host',
        value: { kind: 'match', text: '', quoted: false, pattern: [] },
        location,
      },
    ];
    for (const tree of trees) {
      const { sql, params } = compileQuery(tree, schema);
      const values = await evaluate(db, sql, params);
      expect(values.every((row) => typeof row.matched === 'boolean')).toBe(true);
    }
  });

  it('refuses text the language refuses, with the position', () => {
    expect(() => compileQuery('host:/web.*/', DEFAULT_EVENT_SCHEMA)).toThrow(QueryParseError);
    expect(() => compileQuery('*', DEFAULT_EVENT_SCHEMA)).toThrow(/only of wildcards/);
  });
});

describe('compileQuery on the events table', () => {
  it('matches text columns case-insensitively, and quoted values exactly', async () => {
    expect(await search('host:web01')).toEqual(['e1', 'e2']);
    expect(await search('host:"web01"')).toEqual(['e1']);
    expect(await search('host:"WEB01"')).toEqual(['e2']);
    expect(await search('user:alice')).toEqual(['e1', 'e6']);
    expect(await search('user_name:"O\'Brien"')).toEqual(['e3']);
    expect(await search("user_name:O'Brien")).toEqual(['e3']);
    expect(await search('host:db-01.bank.example')).toEqual(['e3']);
    expect(await search('host:nowhere')).toEqual([]);
  });

  it('takes wildcards as LIKE patterns with every other LIKE character literal', async () => {
    expect(await search('host:web*')).toEqual(['e1', 'e2', 'e6']);
    expect(await search('host:web?01')).toEqual(['e6']);
    expect(await search('host:web_01')).toEqual(['e6']);
    // `_` in a wildcard word is a literal underscore, not LIKE's any-character.
    expect(await search('host:web_*')).toEqual(['e6']);
    expect(await search('path:50%*')).toEqual(['e2']);
    expect(await search('path:5*')).toEqual(['e2']);
    expect(await search('path:50?_off*')).toEqual(['e2']);
    expect(await search('path:50_*')).toEqual([]);
    expect(await search('path:*\\\\sale')).toEqual(['e2']);
    expect(await search('level:x%y_*')).toEqual(['e6']);
    expect(await search('level:x?y?z')).toEqual(['e6']);
    expect(await search('level:x_y%z*')).toEqual([]);
    expect(await search('"Transfer fee 50%"')).toEqual(['e3']);
    expect(await search('*50\\%*')).toEqual(['e3']);
    expect(await search('*100\\%*')).toEqual(['e6']);
    expect(await search('*C\\:\\\\temp\\\\fee_*')).toEqual(['e3']);
    expect(await search('"C:\\\\temp"')).toEqual(['e3']);
    expect(await search('*fee?waiver*')).toEqual(['e3']);
    expect(await search('*fee\\?waiver*')).toEqual([]);
  });

  it('treats field:* as presence', async () => {
    expect(await search('host:*')).toEqual(['e1', 'e2', 'e3', 'e5', 'e6']);
    expect(await search('dst_ip:*')).toEqual(['e1', 'e2', 'e5', 'e6']);
    expect(await search('account.id:*')).toEqual(['e3']);
    expect(await search('ts:*')).toEqual(['e1', 'e2', 'e3', 'e4', 'e5', 'e6']);
  });

  it('searches free text in the message and field values, phrases in order', async () => {
    expect(await search('login')).toEqual(['e1', 'e5']);
    expect(await search('LOGIN')).toEqual(['e1', 'e5']);
    expect(await search('transfer')).toEqual(['e2', 'e3']);
    expect(await search('"wire transfer"')).toEqual(['e2']);
    expect(await search('"transfer wire"')).toEqual([]);
    expect(await search('savings')).toEqual(['e3']);
    expect(await search('login carol')).toEqual(['e5']);
    expect(await search('login OR transfer')).toEqual(['e1', 'e2', 'e3', 'e5']);
    expect(await search('"!!!"')).toEqual([]);
    expect(await search('succ*')).toEqual(['e5']);
    expect(await search('*SCAN*')).toEqual(['e6']);
  });

  it('compares inet columns: addresses, networks, wildcards; other values match nothing', async () => {
    expect(await search('src_ip:10.0.0.1')).toEqual(['e1']);
    expect(await search('src_ip:"10.0.0.1"')).toEqual(['e1']);
    expect(await search('ip:10.0.0.1')).toEqual(['e1', 'e5']);
    expect(await search('ip:"10.0.0.0/8"')).toEqual(['e1', 'e2', 'e5', 'e6']);
    expect(await search('src_ip:"10.0.0.0/24"')).toEqual(['e1', 'e6']);
    expect(await search('dst_ip:2001:db8::1')).toEqual(['e2']);
    expect(await search('ip:"2001:db8::/32"')).toEqual(['e2', 'e5']);
    expect(await search('src_ip:10.0.*')).toEqual(['e1', 'e6']);
    expect(await search('src_ip:web01')).toEqual([]);
    expect(await search('src_ip:"10.0.0.256"')).toEqual([]);
    expect(await search('src_ip:"10.0.0.0/33"')).toEqual([]);
    expect(await search('src_ip:"1.2.3"')).toEqual([]);
    expect(await search('NOT src_ip:nonsense')).toEqual(['e1', 'e2', 'e3', 'e4', 'e5', 'e6']);
    expect(await search('src_ip:[10.0.0.0 TO 10.0.0.255]')).toEqual(['e1', 'e6']);
    expect(await search('src_ip:>=x')).toEqual([]);
  });

  it('compares jsonb fields by containment: strings, numbers, booleans and array elements', async () => {
    expect(await search('action:deny')).toEqual(['e1', 'e6']);
    expect(await search('action:DENY')).toEqual([]);
    expect(await search('status:401')).toEqual(['e1']);
    expect(await search('status:"404"')).toEqual(['e6']);
    expect(await search('status:200.0')).toEqual(['e2']);
    expect(await search('bytes:250')).toEqual(['e2']);
    expect(await search('bytes:-5')).toEqual(['e6']);
    expect(await search('flagged:true')).toEqual(['e3']);
    expect(await search('tags:vpn')).toEqual(['e1', 'e5']);
    expect(await search('http.method:POST')).toEqual(['e1']);
    expect(await search('account.type:savings')).toEqual(['e3']);
    expect(await search('"user agent":"curl/8.0"')).toEqual(['e1']);
    expect(await search('note:"she said \\"hi\\""')).toEqual(['e5']);
    // Wildcards match case-insensitively, on scalar values.
    expect(await search('http.method:P*')).toEqual(['e1', 'e6']);
    expect(await search('http.method:g?t')).toEqual(['e2']);
    expect(await search('tags:v*')).toEqual(['e5']);
  });

  it('compares numbers in numeric ranges, counting numeric strings, never failing on others', async () => {
    expect(await search('bytes:[100 TO 2000]')).toEqual(['e1', 'e2']);
    expect(await search('bytes:{250 TO 1500]')).toEqual(['e1']);
    expect(await search('bytes:[250 TO 1500}')).toEqual(['e2']);
    expect(await search('bytes:[* TO 0]')).toEqual(['e6']);
    expect(await search('bytes:[1000 TO *]')).toEqual(['e1', 'e5']);
    expect(await search('bytes:>1500')).toEqual(['e5']);
    expect(await search('bytes:>=1500')).toEqual(['e1', 'e5']);
    expect(await search('bytes:<250')).toEqual(['e6']);
    expect(await search('bytes:<=250')).toEqual(['e2', 'e6']);
    expect(await search('status:[200 TO 404]')).toEqual(['e1', 'e2', 'e6']);
    expect(await search('amount:>12000.25')).toEqual(['e3']);
    expect(await search('http.status:>400')).toEqual(['e1']);
    // Text values (`ok`, objects) are not compared as numbers.
    expect(await search('status:[0 TO 100000]')).toEqual(['e1', 'e2', 'e6']);
    expect(await search('http:[0 TO 100000]')).toEqual([]);
    expect(await search('host:[0 TO 100]')).toEqual([]);
  });

  it('compares text when the bounds are not numbers', async () => {
    expect(await search('host:[a TO m]')).toEqual(['e3']);
    expect(await search('host:[a TO n]')).toEqual(['e3', 'e5']);
    expect(await search('action:{allow TO *]')).toEqual(['e1', 'e6']);
    expect(await search('data_source:<f')).toEqual(['e3']);
    expect(await search('data_source:<=mail')).toEqual(['e1', 'e3', 'e5', 'e6']);
  });

  it('compares timestamp columns with ISO dates, a date meaning its whole UTC day', async () => {
    expect(await search('ts:2024-05-01')).toEqual(['e1', 'e2']);
    expect(await search('@timestamp:"2024-05-01T08:00:00Z"')).toEqual(['e1']);
    expect(await search('ts:2024-05-01T10:00:00+02:00')).toEqual(['e1']);
    expect(await search('ts:[2024-05-01 TO 2024-05-02]')).toEqual(['e1', 'e2', 'e3']);
    expect(await search('ts:[2024-05-01 TO 2024-05-02}')).toEqual(['e1', 'e2']);
    expect(await search('ts:{2024-05-01 TO *]')).toEqual(['e3', 'e4', 'e5']);
    expect(await search('ts:>2024-05-01')).toEqual(['e3', 'e4', 'e5']);
    expect(await search('ts:>=2024-05-01')).toEqual(['e1', 'e2', 'e3', 'e4', 'e5']);
    expect(await search('ts:<2024-05-01')).toEqual(['e6']);
    expect(await search('ts:<=2024-05-01')).toEqual(['e1', 'e2', 'e6']);
    expect(await search('ts:>2024-05-01T08:00:00Z')).toEqual(['e2', 'e3', 'e4', 'e5']);
    expect(await search('timestamp:[2024-05-01T08:00:00Z TO 2024-05-02T00:00:00Z}')).toEqual(['e1', 'e2']);
    expect(await search('ts:[2024-05-15T12:00:00.000Z TO 2024-05-15T12:00:00Z]')).toEqual(['e4']);
    // Impossible or non-date values match nothing rather than failing.
    expect(await search('ts:2024-02-30')).toEqual([]);
    expect(await search('ts:[2024-05-01 TO tomorrow]')).toEqual([]);
    expect(await search('ts:[1 TO 2]')).toEqual([]);
    expect(await search('ts:yesterday')).toEqual([]);
  });

  it('answers _exists_ for columns, aliases and nested fields, JSON null counting as absent', async () => {
    expect(await search('_exists_:host')).toEqual(['e1', 'e2', 'e3', 'e5', 'e6']);
    expect(await search('_exists_:ip')).toEqual(['e1', 'e2', 'e3', 'e5', 'e6']);
    expect(await search('_exists_:dst_ip')).toEqual(['e1', 'e2', 'e5', 'e6']);
    expect(await search('_exists_:http.method')).toEqual(['e1', 'e2', 'e6']);
    expect(await search('_exists_:gone')).toEqual([]);
    expect(await search('_exists_:"user agent"')).toEqual(['e1']);
    expect(await search('NOT _exists_:http')).toEqual(['e3', 'e4', 'e5']);
    expect(await search('host:[* TO *]')).toEqual(['e1', 'e2', 'e3', 'e5', 'e6']);
  });

  it('applies NOT, -, AND, OR and parentheses with NOT over AND over OR', async () => {
    expect(await search('NOT action:deny')).toEqual(['e2', 'e3', 'e4', 'e5']);
    expect(await search('-action:deny')).toEqual(['e2', 'e3', 'e4', 'e5']);
    // Events without the field are kept by NOT (no three-valued logic leaks).
    expect(await search('NOT host:web01')).toEqual(['e3', 'e4', 'e5', 'e6']);
    expect(await search('action:deny AND user:alice')).toEqual(['e1', 'e6']);
    expect(await search('action:deny user_name:"Alice"')).toEqual(['e6']);
    // OR binds looser than AND, whether the AND is written or implicit.
    expect(await search('host:mail OR action:deny AND user_name:"Alice"')).toEqual(['e5', 'e6']);
    expect(await search('host:mail OR action:deny user_name:"Alice"')).toEqual(['e5', 'e6']);
    expect(await search('(host:mail OR action:deny) user_name:"Alice"')).toEqual(['e6']);
    // NOT binds tighter than AND and OR.
    expect(await search('NOT action:deny AND NOT action:allow')).toEqual(['e4', 'e5']);
    expect(await search('NOT action:deny OR host:web01')).toEqual(['e1', 'e2', 'e3', 'e4', 'e5']);
    expect(await search('NOT (action:deny OR host:mail)')).toEqual(['e2', 'e3', 'e4']);
    expect(await search('-(action:deny OR host:mail) -_exists_:host')).toEqual(['e4']);
    expect(await search('NOT NOT host:mail')).toEqual(['e5']);
    expect(await search('login -carol')).toEqual(['e1']);
  });

  it('applies a field group to each value', async () => {
    expect(await search('host:(mail OR "web01")')).toEqual(['e1', 'e5']);
    expect(await search('bytes:([* TO 0] OR >50000)')).toEqual(['e5', 'e6']);
    expect(await search('action:(NOT deny)')).toEqual(['e2', 'e3', 'e4', 'e5']);
  });
});
