/// <reference types="node" />
import { isIP } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  HASH_PATTERN,
  IPV4_PATTERN,
  IPV6_PATTERN,
  MAC_PATTERN,
  assetInputSchema,
  assetSearchSchema,
  ipMacPairErrors,
  isHash,
  isIpAddress,
  isMacAddress,
  isPrivateAddress,
  normaliseIp,
  normaliseMac,
} from './assets';

/** What a URL parser makes of an IPv6 address: the WHATWG serialisation, RFC 5952's canonical text. */
const urlForm = (ip: string) => new URL(`http://[${ip}]/`).hostname.slice(1, -1);

/** Text near an address: characters inserted, removed or replaced, to find the edges of a pattern. */
const mutated = (address: fc.Arbitrary<string>) =>
  fc
    .tuple(
      address,
      fc.nat(),
      fc.constantFrom('', ':', '.', '0', 'f', 'g', '::', ' ', '-', '%1', '1234'),
      fc.boolean(),
    )
    .map(([text, at, insert, replace]) => {
      const position = at % (text.length + 1);
      return text.slice(0, position) + insert + text.slice(position + (replace ? 1 : 0));
    });

const octet = fc.integer({ min: 0, max: 255 });
const group = fc.integer({ min: 0, max: 0xffff });
const hexText = (length: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: length, maxLength: length });

describe('IP patterns', () => {
  it('accept exactly what node:net reads as IPv4', () => {
    fc.assert(
      fc.property(fc.oneof(fc.ipV4(), fc.ipV4Extended(), mutated(fc.ipV4())), (text) => {
        expect(IPV4_PATTERN.test(text)).toBe(isIP(text) === 4);
      }),
      { numRuns: 2000 },
    );
  });

  it('accept exactly what node:net reads as IPv6, zones aside', () => {
    fc.assert(
      fc.property(fc.oneof(fc.ipV6(), mutated(fc.ipV6())), (text) => {
        // node:net also takes a zone (fe80::1%eth0), which an asset address never carries.
        fc.pre(!text.includes('%'));
        expect(IPV6_PATTERN.test(text)).toBe(isIP(text) === 6);
      }),
      { numRuns: 3000 },
    );
    expect(IPV6_PATTERN.test('fe80::1%eth0')).toBe(false);
  });

  it('read any address as one kind only', () => {
    fc.assert(
      fc.property(fc.oneof(fc.ipV4(), fc.ipV6()), (ip) => {
        expect(isIpAddress(ip)).toBe(true);
        expect(IPV4_PATTERN.test(ip) && IPV6_PATTERN.test(ip)).toBe(false);
      }),
    );
  });
});

describe('normaliseIp', () => {
  it('writes IPv6 as a URL parser does (RFC 5952), whatever the notation', () => {
    fc.assert(
      fc.property(fc.ipV6(), fc.boolean(), (ip, upper) => {
        const text = upper ? ip.toUpperCase() : ip;
        const canonical = normaliseIp(text);
        expect(canonical).toBe(urlForm(text));
        expect(IPV6_PATTERN.test(canonical)).toBe(true);
        expect(normaliseIp(canonical)).toBe(canonical);
      }),
      { numRuns: 3000 },
    );
  });

  it('makes every spelling of eight groups one address', () => {
    fc.assert(
      fc.property(fc.array(group, { minLength: 8, maxLength: 8 }), fc.boolean(), (groups, padded) => {
        const full = groups.map((part) => part.toString(16).padStart(padded ? 4 : 1, '0')).join(':');
        expect(normaliseIp(full)).toBe(urlForm(full));
        expect(normaliseIp(full.toUpperCase())).toBe(normaliseIp(urlForm(full)));
      }),
    );
    expect(normaliseIp('0:0::1')).toBe('::1');
    expect(normaliseIp('2001:DB8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1');
    expect(normaliseIp('::ffff:10.0.0.1')).toBe('::ffff:a00:1');
  });

  it('keeps IPv4 as written', () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        expect(normaliseIp(ip)).toBe(ip);
      }),
    );
  });
});

describe('MAC addresses', () => {
  const notations = (bytes: number[]) => {
    const pairs = bytes.map((byte) => byte.toString(16).padStart(2, '0'));
    const dotted = [0, 2, 4].map((at) => pairs[at]! + pairs[at + 1]!).join('.');
    return { colon: pairs.join(':'), dash: pairs.join('-'), dotted };
  };
  const bytes = fc.array(octet, { minLength: 6, maxLength: 6 });

  it('accept the three notations in any case and store them as one', () => {
    fc.assert(
      fc.property(bytes, fc.boolean(), (value, upper) => {
        const { colon, dash, dotted } = notations(value);
        for (const text of [colon, dash, dotted]) {
          const written = upper ? text.toUpperCase() : text;
          expect(isMacAddress(written)).toBe(true);
          expect(normaliseMac(written)).toBe(colon);
        }
      }),
    );
  });

  it('refuse mixed separators, wrong lengths and non-hex digits', () => {
    fc.assert(
      fc.property(bytes, fc.integer({ min: 1, max: 4 }), (value, at) => {
        const { colon, dotted } = notations(value);
        const mixed = `${colon.slice(0, at * 3 - 1)}-${colon.slice(at * 3)}`;
        expect(MAC_PATTERN.test(mixed)).toBe(false);
        expect(isMacAddress(colon.slice(0, -3))).toBe(false);
        expect(isMacAddress(`${colon}:00`)).toBe(false);
        expect(isMacAddress(dotted.replace('.', ':'))).toBe(false);
        expect(isMacAddress(`${colon.slice(0, -1)}g`)).toBe(false);
      }),
    );
  });
});

describe('hash pattern', () => {
  it('takes 32 to 64 hex characters in whole pairs, for every length 0 to 70', () => {
    for (let length = 0; length <= 70; length++) {
      const expected = length % 2 === 0 && length >= 32 && length <= 64;
      fc.assert(
        fc.property(hexText(length), (text) => {
          expect(HASH_PATTERN.test(text)).toBe(expected);
          expect(isHash(text)).toBe(expected);
        }),
        { numRuns: 20 },
      );
    }
  });

  it('refuses any non-hex character', () => {
    fc.assert(
      fc.property(
        hexText(40),
        fc.nat(39),
        fc.constantFrom('g', 'G', 'x', ' ', '-', ':', 'é'),
        (text, at, char) => {
          expect(isHash(text.slice(0, at) + char + text.slice(at + 1))).toBe(false);
        },
      ),
    );
  });
});

describe('isPrivateAddress', () => {
  it('knows the private, link-local and loopback IPv4 ranges', () => {
    fc.assert(
      fc.property(octet, octet, octet, octet, (a, b, c, d) => {
        const expected =
          a === 10 ||
          (a === 172 && b >= 16 && b <= 31) ||
          (a === 192 && b === 168) ||
          (a === 169 && b === 254) ||
          a === 127;
        expect(isPrivateAddress(`${a}.${b}.${c}.${d}`)).toBe(expected);
      }),
      { numRuns: 3000 },
    );
    for (const [ip, expected] of [
      ['10.0.0.1', true],
      ['172.15.255.255', false],
      ['172.16.0.0', true],
      ['172.31.255.255', true],
      ['172.32.0.0', false],
      ['192.168.1.1', true],
      ['192.169.1.1', false],
      ['169.254.0.1', true],
      ['8.8.8.8', false],
    ] as const) {
      expect(isPrivateAddress(ip), ip).toBe(expected);
    }
  });

  it('knows fd00::/8 and ::1 in any IPv6 notation', () => {
    fc.assert(
      fc.property(fc.array(group, { minLength: 8, maxLength: 8 }), fc.boolean(), (groups, compress) => {
        const full = groups.map((part) => part.toString(16)).join(':');
        const text = compress ? normaliseIp(full) : full;
        const loopback = groups.slice(0, 7).every((part) => part === 0) && groups[7] === 1;
        expect(isPrivateAddress(text)).toBe(groups[0]! >> 8 === 0xfd || loopback);
        expect(isPrivateAddress(text.toUpperCase())).toBe(isPrivateAddress(text));
      }),
      { numRuns: 2000 },
    );
    expect(isPrivateAddress('FD12:3456::1')).toBe(true);
    expect(isPrivateAddress('fc00::1')).toBe(false);
    expect(isPrivateAddress('0:0:0:0:0:0:0:1')).toBe(true);
  });

  it('is false for anything that is no address', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        fc.pre(!isIpAddress(text));
        expect(isPrivateAddress(text)).toBe(false);
      }),
    );
  });
});

describe('asset contracts', () => {
  it('read pairs: blank parts are absent, addresses stored canonically, problems named', () => {
    const parsed = assetInputSchema.parse({
      name: ' ATM ',
      importance: 'high',
      labels: [' a ', 'a', ''],
      ipMacPairs: [{ ip: ' 2001:DB8::0:1 ', mac: '' }, { mac: 'AA-BB-CC-DD-EE-FF' }],
    });
    expect(parsed).toMatchObject({
      name: 'ATM',
      labels: ['a'],
      hostnames: [],
      ipMacPairs: [
        { ip: '2001:db8::1', mac: null },
        { ip: null, mac: 'aa:bb:cc:dd:ee:ff' },
      ],
    });
    expect(ipMacPairErrors({ ip: '', mac: ' ' })).toEqual(['ipOrMacRequired']);
    expect(ipMacPairErrors({ ip: '1.2.3', mac: 'zz' })).toEqual(['badIp', 'badMac']);
    const refused = assetInputSchema.safeParse({ name: 'x', importance: 'low', ipMacPairs: [{ ip: 'x' }] });
    expect(refused.error?.issues[0]).toMatchObject({ path: ['ipMacPairs', 0, 'ip'], message: 'badIp' });
  });

  it('read search parameters from a query string or a JSON body', () => {
    expect(assetSearchSchema.parse({})).toEqual({
      tracked: 'both',
      active: true,
      importance: 'all',
      sortBy: 'name',
      desc: false,
      pageSize: 50,
      pageId: 0,
    });
    expect(
      assetSearchSchema.parse({ active: 'false', desc: 'true', softwareNames: 'Chrome', pageId: '2' }),
    ).toMatchObject({ active: false, desc: true, softwareNames: ['Chrome'], pageId: 2 });
    expect(assetSearchSchema.parse({ active: false, softwareNames: ['a', 'b'] })).toMatchObject({
      active: false,
      softwareNames: ['a', 'b'],
    });
    expect(assetSearchSchema.safeParse({ tracked: 'all' }).success).toBe(false);
    expect(assetSearchSchema.safeParse({ lastSeenAfter: 'yesterday' }).success).toBe(false);
  });
});
