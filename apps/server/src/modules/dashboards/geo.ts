/**
 * Country of an IP address, from the GeoLite2 country database that ships inside the `geoip-country`
 * package (offline: nothing is fetched at run time). The database (8 MB) is read on first use, so
 * servers that never draw a map chart never load it.
 */
type Lookup = (ip: string) => { country: string } | null;

let lookup: Promise<Lookup> | undefined;

/** ISO 3166-1 alpha-2 codes of `ips` (null for private, reserved and unknown addresses), in order. */
export async function countriesOf(ips: readonly string[]): Promise<(string | null)[]> {
  lookup ??= import('geoip-country').then((module) => module.lookup);
  const find = await lookup;
  return ips.map((ip) => find(ip)?.country ?? null);
}
