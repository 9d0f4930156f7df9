import {
  apiVsSql,
  benchApp,
  sample,
  scratchDatabase,
  seconds,
  type BenchResult,
  type Query,
} from './support';

const ASSET_COUNT = 100_000;
const LABELS = Array.from({ length: 20 }, (_, i) => `Label ${String(i).padStart(2, '0')}`);
const PAGE_SIZE = 50;

/**
 * 100,000 assets with 3 addresses each in one organisation, created in SQL. Each asset carries two
 * of 20 labels, so a label selects about a tenth of them; names are host-<n>, so the text "host-12"
 * selects about 1%.
 */
async function seedAssets(query: Query, orgId: string) {
  await query(
    `INSERT INTO assets (id, org_id, name, tag, owner, importance, labels, hostnames, tracked,
                         last_seen, data_last_sent, search_text, created_on, modified_on)
     SELECT md5('asset' || g)::uuid, $1, 'host-' || g, 'TAG-' || (g % 1000), 'owner ' || (g % 50),
            (ARRAY['high','medium','low','none'])[1 + g % 4],
            ARRAY[($2::text[])[1 + g % 20], ($2::text[])[1 + (g % 20 + 1 + (g / 20) % 19) % 20]],
            ARRAY['host-' || g || '.corp.example'], g % 10 <> 0,
            now() - (g % 86400) * interval '1 minute', now() - (g % 600) * interval '1 minute',
            '', now() - interval '90 days', now()
       FROM generate_series(1, $3::int) AS g`,
    [orgId, LABELS, ASSET_COUNT],
  );
  await query(
    `INSERT INTO asset_addresses (org_id, asset_id, ip, mac, position)
     SELECT $1, md5('asset' || g)::uuid,
            '10.' || ((g * 3 + p) >> 16 & 255) || '.' || ((g * 3 + p) >> 8 & 255) || '.' || ((g * 3 + p) & 255),
            regexp_replace(lpad(to_hex(g * 3 + p), 12, '0'), '(..)(?!$)', '\\1:', 'g'), p
       FROM generate_series(1, $2::int) AS g, generate_series(0, 2) AS p`,
    [orgId, ASSET_COUNT],
  );
  // The same text the repository keeps in search_text on every write.
  await query(
    `UPDATE assets a SET search_text = lower(concat_ws(' ', a.name, a.tag, a.owner, a.description,
              array_to_string(a.labels, ' '), array_to_string(a.hostnames, ' '),
              (SELECT string_agg(concat_ws(' ', ad.ip, ad.mac), ' ') FROM asset_addresses ad WHERE ad.asset_id = a.id)))
      WHERE a.org_id = $1`,
    [orgId],
  );
  await query('ANALYZE assets');
  await query('ANALYZE asset_addresses');
}

/** The list query the API runs, written by hand: page, total and the page's addresses. */
async function rawSearch(query: Query, orgId: string, label: string, text: string, after: string) {
  const where = `org_id = $1 AND active AND labels @> ARRAY[$2]::text[] AND search_text LIKE $3
                 AND coalesce(last_seen, created_on) >= $4`;
  const params = [orgId, label, `%${text}%`, after];
  // Page and total run side by side, as the API runs them.
  const [page] = await Promise.all([
    query(
      `SELECT * FROM assets WHERE ${where}
      ORDER BY (CASE WHEN last_seen IS NULL THEN 1 ELSE 0 END), coalesce(last_seen, 'epoch'::timestamptz) DESC,
               lower(name), id DESC
      LIMIT ${PAGE_SIZE}`,
      params,
    ),
    query(`SELECT count(*) FROM assets WHERE ${where}`, params),
  ]);
  await query('SELECT * FROM asset_addresses WHERE asset_id = ANY($1) AND active ORDER BY position', [
    (page.rows as { id: string }[]).map((row) => row.id),
  ]);
}

/**
 * Asset search through the HTTP API (session, access hook, validation, JSON) against the same
 * query in raw SQL on the same database: filter by label and free text, sort by last seen, page of 50.
 */
export async function assetSearchBenchmark(): Promise<BenchResult> {
  const scratch = await scratchDatabase();
  const { query, orgId, cookie } = scratch;
  try {
    const seedStart = Date.now();
    await seedAssets(query, orgId);
    const seeded = `seeded ${ASSET_COUNT} assets, ${ASSET_COUNT * 3} addresses in ${seconds(seedStart)}`;

    const app = await benchApp(scratch.database);
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const after = new Date(Date.now() - 30 * 86_400_000).toISOString();
    let turn = 0;
    const nextCase = () => {
      turn++;
      return { label: LABELS[turn % LABELS.length]!, text: `host-${10 + (turn % 90)}` };
    };
    const count = 300;
    const api = await sample(count, async () => {
      const { label, text } = nextCase();
      const params = new URLSearchParams({
        label,
        query: text,
        sortBy: 'lastSeen',
        desc: 'true',
        pageSize: String(PAGE_SIZE),
        pageId: '0',
        lastSeenAfter: after,
      });
      const response = await fetch(`${address}/api/org/${orgId}/assets/search?${params}`, {
        headers: { cookie },
      });
      if (response.status !== 200)
        throw new Error(`search answered ${response.status}: ${await response.text()}`);
      await response.json();
    });
    const raw = await sample(count, async () => {
      const { label, text } = nextCase();
      await rawSearch(query, orgId, label, text, after);
    });
    await app.close();
    const lines = [seeded, ...apiVsSql(api, raw)];
    return {
      name: `asset search: label + free text, sorted by last seen, page of 50, ${scratch.where}`,
      lines,
    };
  } finally {
    await scratch.close();
  }
}
