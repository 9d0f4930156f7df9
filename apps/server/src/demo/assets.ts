import { randomUUID } from 'node:crypto';
import { ASSET_DOWN_AFTER_MS, type AssetImportance, type IpMacPair } from '@vigil/contracts';
import type { Db } from '../db/client';
import { saveAssetConfig, searchTextOf } from '../modules/assets/repo';
import { assetAddresses, assetAddressHistory, assets, assetSoftware } from '../modules/assets/tables';
import { generator } from './random';

/*
 * Demo inventory: a few hundred assets across the demo banks. The content is deterministic (a seeded
 * pseudo-random sequence per organisation); times are relative to the start.
 */

const DAY = 86_400_000;
const BATCH = 200;

type Random = ReturnType<typeof generator>;

interface DemoSoftware {
  name: string;
  version: string;
}

interface DemoAsset {
  name: string;
  importance: AssetImportance;
  tag: string | null;
  owner: string | null;
  description: string | null;
  labels: string[];
  hostnames: string[];
  pairs: IpMacPair[];
  software: DemoSoftware[];
  tracked: boolean;
  active: boolean;
  lastSeen: Date | null;
  dataLastSent: Date | null;
  createdOn: Date;
}

interface DemoBank {
  orgId: string;
  /** Second octet of the bank's 10.x addresses. */
  net: number;
  domain: string;
  branches: string[];
  seed: number;
  /** Assets per branch kind. */
  tellersPerBranch: number;
  workstationsPerBranch: number;
}

const WORKSTATION_SOFTWARE: DemoSoftware[][] = [
  [{ name: 'Microsoft Windows 11 Enterprise', version: '23H2' }],
  [{ name: 'Microsoft Windows 10 Enterprise', version: '22H2' }],
];
const COMMON_SOFTWARE: DemoSoftware[] = [
  { name: 'Microsoft Edge', version: '124.0.2478.80' },
  { name: 'Google Chrome', version: '125.0.6422.60' },
  { name: 'CrowdStrike Falcon Sensor', version: '7.14.18408' },
  { name: 'Microsoft 365 Apps', version: '16.0.17531' },
  { name: 'Adobe Acrobat Reader', version: '24.002.20759' },
  { name: 'Zoom Workplace', version: '6.0.11' },
];
const SERVER_OS: DemoSoftware[] = [
  { name: 'Microsoft Windows Server 2022', version: '21H2' },
  { name: 'Microsoft Windows Server 2019', version: '1809' },
  { name: 'Red Hat Enterprise Linux', version: '9.3' },
  { name: 'Ubuntu Server', version: '22.04.4 LTS' },
];

function mac(random: Random, used: Set<string>, prefix: string): string {
  for (;;) {
    const tail = [0, 0, 0].map(() => random.int(0, 255).toString(16).padStart(2, '0'));
    const value = `${prefix}:${tail.join(':')}`;
    if (!used.has(value)) {
      used.add(value);
      return value;
    }
  }
}

/** The inventory of one bank. */
function bankInventory(bank: DemoBank, now: number): DemoAsset[] {
  const random = generator(bank.seed);
  const usedMacs = new Set<string>();
  const list: DemoAsset[] = [];
  const seenAgo = (maxDays: number) => new Date(now - random.int(0, maxDays * 24 * 60) * 60_000);
  const add = (asset: Partial<DemoAsset> & Pick<DemoAsset, 'name' | 'importance'>) => {
    const lastSeen = asset.lastSeen === undefined ? seenAgo(60) : asset.lastSeen;
    list.push({
      tag: null,
      owner: null,
      description: null,
      labels: [],
      hostnames: [],
      pairs: [],
      software: [],
      tracked: true,
      active: true,
      dataLastSent: lastSeen,
      createdOn: new Date(now - random.int(61, 400) * DAY),
      ...asset,
      lastSeen,
    });
  };
  const host = (name: string) => `${name}.${bank.domain}`;
  const withCommon = (base: DemoSoftware[]) => [
    ...base,
    ...COMMON_SOFTWARE.filter(() => random.chance(0.55)),
  ];

  // Head office: core banking, directory, network edge.
  const core = (octet: number, ipv6?: string): IpMacPair[] => [
    { ip: `10.${bank.net}.0.${octet}`, mac: mac(random, usedMacs, '00:50:56') },
    ...(ipv6 ? [{ ip: ipv6, mac: null }] : []),
  ];
  const healthy = () => new Date(now - random.int(5, 90) * 1000);
  const servers: [string, string, string[], DemoSoftware[], string | null][] = [
    [
      'Core Banking App Server 01',
      'cbapp01',
      ['Core Banking', 'PCI', 'Health Monitored'],
      [{ name: 'Core Banking Platform', version: '2024.2' }],
      'Core banking application tier',
    ],
    [
      'Core Banking App Server 02',
      'cbapp02',
      ['Core Banking', 'PCI', 'Health Monitored'],
      [{ name: 'Core Banking Platform', version: '2024.2' }],
      'Core banking application tier',
    ],
    [
      'Core Banking DB Primary',
      'cbdb01',
      ['Core Banking', 'PCI', 'Database', 'Health Monitored'],
      [{ name: 'Oracle Database', version: '19c' }],
      'Primary database of the core platform',
    ],
    [
      'Core Banking DB Standby',
      'cbdb02',
      ['Core Banking', 'PCI', 'Database'],
      [{ name: 'Oracle Database', version: '19c' }],
      'Data Guard standby',
    ],
    [
      'Domain Controller DC01',
      'dc01',
      ['Domain Controller', 'Health Monitored'],
      [{ name: 'Active Directory Domain Services', version: '2022' }],
      null,
    ],
    [
      'Domain Controller DC02',
      'dc02',
      ['Domain Controller'],
      [{ name: 'Active Directory Domain Services', version: '2022' }],
      null,
    ],
    [
      'Online Banking Web 01',
      'obweb01',
      ['DMZ', 'PCI', 'Load Balanced'],
      [{ name: 'nginx', version: '1.24.0' }],
      'Customer online banking front end',
    ],
    [
      'Online Banking Web 02',
      'obweb02',
      ['DMZ', 'PCI', 'Load Balanced'],
      [{ name: 'nginx', version: '1.24.0' }],
      'Customer online banking front end',
    ],
    [
      'Wire Transfer Server',
      'wire01',
      ['Payments', 'PCI', 'Health Monitored'],
      [{ name: 'SWIFT Alliance Access', version: '7.6' }],
      'Outgoing wires and Fedwire',
    ],
    ['ACH Processing Server', 'ach01', ['Payments', 'PCI'], [{ name: 'ACH Manager', version: '5.3' }], null],
    ['Mail Gateway', 'mailgw01', ['DMZ'], [{ name: 'Postfix', version: '3.7.9' }], null],
    ['File Server', 'fs01', ['Server'], [], 'Department shares'],
    [
      'SIEM Collector',
      'collector01',
      ['Health Monitored', 'Security'],
      [{ name: 'Vigil Collector', version: '3.2.1' }],
      null,
    ],
    [
      'Vulnerability Scanner',
      'vscan01',
      ['Scanner', 'Security'],
      [{ name: 'Nessus', version: '10.7.3' }],
      'Weekly authenticated scans',
    ],
  ];
  servers.forEach(([name, hostname, labels, software, description], index) => {
    const stale = index === 3 || index === 9;
    add({
      name,
      importance: index < 10 ? 'high' : 'medium',
      tag: `HO-${String(index + 1).padStart(3, '0')}`,
      owner: index < 4 ? 'Core Banking Team' : 'IT Infrastructure',
      description,
      labels: [...labels, 'Server'],
      hostnames: [host(hostname), hostname],
      pairs: core(
        10 + index,
        index < 3 ? `fd00:${bank.net.toString(16)}::${(10 + index).toString(16)}` : undefined,
      ),
      software: [random.pick(SERVER_OS), ...software],
      lastSeen: stale ? new Date(now - random.int(2, 9) * 3600_000) : healthy(),
      // Two high-importance servers went quiet hours ago: the assets-down notice shows them.
      dataLastSent: stale ? new Date(now - random.int(2, 9) * 3600_000 - ASSET_DOWN_AFTER_MS) : healthy(),
    });
  });
  const edge: [string, string, string, DemoSoftware][] = [
    ['Perimeter Firewall FW-EDGE-01', 'fw-edge01', 'Firewall', { name: 'PAN-OS', version: '11.1.2' }],
    ['Perimeter Firewall FW-EDGE-02', 'fw-edge02', 'Firewall', { name: 'PAN-OS', version: '11.1.2' }],
    ['Load Balancer LB-01', 'lb01', 'Load Balancer', { name: 'F5 BIG-IP', version: '17.1.1' }],
    ['Load Balancer LB-02', 'lb02', 'Load Balancer', { name: 'F5 BIG-IP', version: '17.1.1' }],
    ['VPN Concentrator', 'vpn01', 'Firewall', { name: 'Cisco ASA', version: '9.18' }],
  ];
  edge.forEach(([name, hostname, label, software], index) => {
    const stale = index === 1;
    add({
      name,
      importance: 'high',
      tag: `NET-${String(index + 1).padStart(2, '0')}`,
      owner: 'Network Operations',
      labels: [label, 'Network', 'Health Monitored'],
      hostnames: [host(hostname)],
      pairs: [
        { ip: `10.${bank.net}.255.${index + 1}`, mac: mac(random, usedMacs, '00:1b:17') },
        { ip: `10.${bank.net}.254.${index + 1}`, mac: mac(random, usedMacs, '00:1b:17') },
      ],
      software: [software],
      lastSeen: healthy(),
      dataLastSent: stale ? new Date(now - 47 * 60_000) : healthy(),
    });
  });

  // Branches: teller PCs, workstations, ATMs, a branch firewall and a printer each.
  bank.branches.forEach((branch, b) => {
    const slug = branch.toLowerCase().replace(/[^a-z0-9]+/g, '');
    const subnet = (role: number, n: number) => `10.${bank.net}.${10 + b * 4 + role}.${n}`;
    for (let n = 1; n <= bank.tellersPerBranch; n++) {
      const name = `${slug}-tlr${String(n).padStart(2, '0')}`;
      add({
        name: `Teller PC ${String(n).padStart(2, '0')} - ${branch}`,
        importance: 'medium',
        tag: `${slug.slice(0, 3).toUpperCase()}-T${n}`,
        owner: `${branch} Branch`,
        labels: ['Teller', 'Branch', 'Workstation'],
        hostnames: [host(name), name],
        pairs: [{ ip: subnet(0, 20 + n), mac: mac(random, usedMacs, '3c:52:82') }],
        software: withCommon([
          random.pick(WORKSTATION_SOFTWARE)[0]!,
          { name: 'Teller Capture', version: random.pick(['4.2.1', '4.3.0']) },
          { name: 'Check Scanner Driver', version: '2.8' },
        ]),
      });
    }
    for (let n = 1; n <= bank.workstationsPerBranch; n++) {
      const name = `${slug}-ws${String(n).padStart(2, '0')}`;
      add({
        name: `${branch} Workstation ${String(n).padStart(2, '0')}`,
        importance: random.chance(0.2) ? 'medium' : 'low',
        owner: `${branch} Branch`,
        labels: ['Branch', 'Workstation'],
        hostnames: [host(name)],
        pairs: [{ ip: subnet(1, 20 + n), mac: mac(random, usedMacs, '3c:52:82') }],
        software: withCommon([random.pick(WORKSTATION_SOFTWARE)[0]!]),
      });
    }
    for (let n = 1; n <= 2; n++) {
      add({
        name: `ATM ${branch} ${n === 1 ? 'Lobby' : 'Drive-Up'}`,
        importance: 'high',
        tag: `ATM-${slug.slice(0, 3).toUpperCase()}-${n}`,
        owner: 'Card Services',
        description: n === 1 ? 'Lobby ATM with deposit module' : 'Drive-up ATM',
        labels: ['ATM', 'PCI', 'Branch'],
        hostnames: [`atm-${slug}-${n}`],
        pairs: [{ ip: subnet(2, 10 + n), mac: mac(random, usedMacs, '00:0b:db') }],
        software: [
          { name: 'Windows 10 IoT Enterprise LTSC', version: '2021' },
          { name: 'XFS Manager', version: '3.30' },
          { name: 'ATM Application Suite', version: random.pick(['6.1.4', '6.2.0']) },
        ],
        lastSeen: healthy(),
        dataLastSent: healthy(),
      });
    }
    add({
      name: `Branch Firewall - ${branch}`,
      importance: 'high',
      owner: 'Network Operations',
      labels: ['Firewall', 'Branch', 'Health Monitored'],
      hostnames: [`fw-${slug}`],
      pairs: [{ ip: subnet(3, 1), mac: mac(random, usedMacs, '00:09:0f') }],
      software: [{ name: 'FortiOS', version: '7.4.3' }],
      lastSeen: healthy(),
      dataLastSent: healthy(),
    });
    add({
      name: `${branch} Printer`,
      importance: 'none',
      labels: ['Branch'],
      hostnames: [`prn-${slug}-01`],
      pairs: [{ ip: subnet(1, 200), mac: mac(random, usedMacs, '00:80:77') }],
    });
  });

  // Hosts seen in events that nobody has claimed yet.
  for (let n = 0; n < 12; n++) {
    const byName = random.chance(0.6);
    const ip = `10.${bank.net}.${random.int(100, 120)}.${random.int(2, 250)}`;
    const hostname = byName ? `DESKTOP-${random.int(0x10000, 0xfffff).toString(16).toUpperCase()}` : null;
    if (list.some((asset) => asset.pairs.some((pair) => pair.ip === ip))) continue;
    add({
      name: hostname ?? ip,
      importance: 'none',
      tracked: false,
      hostnames: hostname ? [hostname] : [],
      pairs: [{ ip, mac: random.chance(0.5) ? mac(random, usedMacs, '02:42:ac') : null }],
      lastSeen: seenAgo(20),
      dataLastSent: null,
    });
  }

  // Two retired machines, deleted.
  add({
    name: 'Old Teller PC (retired)',
    importance: 'low',
    labels: ['Teller'],
    hostnames: ['tlr-legacy-01'],
    pairs: [{ ip: `10.${bank.net}.99.1`, mac: mac(random, usedMacs, '00:14:22') }],
    active: false,
    lastSeen: seenAgo(200),
  });
  add({
    name: 'Windows 2012 File Server (decommissioned)',
    importance: 'medium',
    hostnames: ['fs-legacy'],
    pairs: [{ ip: `10.${bank.net}.99.2`, mac: null }],
    software: [{ name: 'Microsoft Windows Server 2012 R2', version: '6.3' }],
    active: false,
    lastSeen: seenAgo(300),
  });
  return list;
}

async function insertInventory(db: Db, orgId: string, inventory: DemoAsset[], now: Date) {
  for (let start = 0; start < inventory.length; start += BATCH) {
    const batch = inventory.slice(start, start + BATCH).map((asset) => ({ ...asset, id: randomUUID() }));
    await db.insert(assets).values(
      batch.map((asset) => ({
        id: asset.id,
        orgId,
        name: asset.name,
        tag: asset.tag,
        owner: asset.owner,
        importance: asset.importance,
        description: asset.description,
        labels: asset.labels,
        hostnames: asset.hostnames,
        tracked: asset.tracked,
        active: asset.active,
        lastSeen: asset.lastSeen,
        dataLastSent: asset.dataLastSent,
        searchText: searchTextOf(asset, asset.pairs),
        createdOn: asset.createdOn,
        modifiedOn: asset.createdOn,
      })),
    );
    const addresses = batch.flatMap((asset) =>
      asset.pairs.map((pair, position) => ({
        orgId,
        assetId: asset.id,
        ...pair,
        position,
        active: asset.active,
        firstSeen: asset.createdOn,
      })),
    );
    if (addresses.length > 0) await db.insert(assetAddresses).values(addresses);
    const history = batch
      .filter((asset) => !asset.active)
      .flatMap((asset) =>
        asset.pairs.map((pair) => ({
          orgId,
          assetId: asset.id,
          ...pair,
          heldFrom: asset.createdOn,
          heldUntil: new Date(now.getTime() - 30 * DAY),
        })),
      );
    if (history.length > 0) await db.insert(assetAddressHistory).values(history);
    const software = batch.flatMap((asset) =>
      asset.software.map((entry) => ({
        orgId,
        assetId: asset.id,
        name: entry.name,
        version: entry.version,
        lastSeen: asset.lastSeen,
      })),
    );
    if (software.length > 0) await db.insert(assetSoftware).values(software);
  }
}

/** The demo banks' inventories; Coastal has not switched discovery of untracked assets on. */
export async function seedAssetsDemo(db: Db, orgIds: { harbor: string; prairie: string; coastal: string }) {
  const now = new Date();
  const banks: DemoBank[] = [
    {
      orgId: orgIds.harbor,
      net: 20,
      domain: 'firstharbor.local',
      branches: ['Main Street', 'Riverside', 'Harbor Point', 'Westgate', 'Oak Hill'],
      seed: 1001,
      tellersPerBranch: 6,
      workstationsPerBranch: 14,
    },
    {
      orgId: orgIds.prairie,
      net: 30,
      domain: 'prairiecu.local',
      branches: ['Downtown', 'Wheatfield', 'Cedar Falls'],
      seed: 2002,
      tellersPerBranch: 4,
      workstationsPerBranch: 10,
    },
    {
      orgId: orgIds.coastal,
      net: 40,
      domain: 'coastalcb.local',
      branches: ['Seaside', 'Bayview'],
      seed: 3003,
      tellersPerBranch: 3,
      workstationsPerBranch: 8,
    },
  ];
  for (const bank of banks) await insertInventory(db, bank.orgId, bankInventory(bank, now.getTime()), now);
  await saveAssetConfig(db, orgIds.coastal, { downNoticeEnabled: true, discoverUntracked: false });
}
