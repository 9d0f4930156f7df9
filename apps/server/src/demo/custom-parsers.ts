import type { EventInput } from '@vigil/contracts';
import type { Db } from '../db/client';
import { insertCustomParser } from '../modules/custom-parsers/repo';
import { ingestEventRows } from '../modules/events/pipeline';
import { eventRow } from '../modules/events/store';

const VPN_EVENTS = 24;
const VPN_USERS = ['tfischer', 'mokoye', 'jalvarez', 'hkim'];

/** A VPN concentrator's session record as the vendor sends it: nothing in the event's own columns. */
function vpnEvent(n: number, at: Date): EventInput {
  const user = VPN_USERS[n % VPN_USERS.length]!;
  return {
    timestamp: at.toISOString(),
    dataSource: 'vpn-gateway',
    message: `VPN session ended for ${user}`,
    fields: {
      'client address': `198.51.100.${20 + (n % 40)}`,
      tunnel: { endpoint: '10.40.0.1', protocol: 'ipsec' },
      session: { user, 'duration sec': 300 + ((n * 137) % 7200) },
      device: { name: 'vpn-gw-01' },
    },
  };
}

/**
 * Prairie Credit Union (the demo bank with the CUSTOM_PARSERS product) sends its VPN concentrator's
 * JSON as is; its parser moves the vendor's fields to the columns search and asset detection use. A
 * day of VPN events goes through the ingest pipeline, so search shows them parsed.
 */
export async function seedCustomParsersDemo(
  db: Db,
  prairieOrgId: string,
  createdBy: string,
  now = new Date(),
) {
  await insertCustomParser(db, {
    orgId: prairieOrgId,
    dataSource: 'vpn-gateway',
    mappings: [
      { from: 'client address', to: 'src_ip' },
      { from: 'tunnel.endpoint', to: 'dst_ip' },
      { from: 'session.user', to: 'user_name' },
      { from: 'device.name', to: 'host' },
      { from: 'session.duration sec', to: 'duration_seconds' },
    ],
    createdBy,
  });
  const hour = 3_600_000;
  const rows = Array.from({ length: VPN_EVENTS }, (_, n) =>
    eventRow(prairieOrgId, vpnEvent(n, new Date(now.getTime() - (n + 0.5) * hour)), now, n),
  );
  await ingestEventRows(db, prairieOrgId, rows);
}
