import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/**
 * The dashboard page's own JavaScript stays under 250 kB gzipped (issue "Performance"). Read as:
 * everything /dashboards/default may load beyond the app shell (the entry chunk and its static imports,
 * which every page shares): the route's chunk, its static imports and the chunks they load on demand,
 * ECharts with every chart type and the map module included. Other pages' route chunks are not the
 * page's own; the map's borders are data fetched as JSON, not JavaScript. Measured on the production
 * build (`npm test` builds first); built here when the build is missing or older than the sources.
 */
const BUDGET_BYTES = 250 * 1024;
const ROUTE = 'src/areas/dashboards/default-dashboard.lazy.tsx';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'dist');
const manifestPath = join(dist, '.vite', 'manifest.json');

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function freshManifest(): Record<string, ManifestChunk> {
  const stale =
    !existsSync(manifestPath) ||
    statSync(manifestPath).mtimeMs <
      Math.max(newestSource(join(root, 'src')), statSync(join(root, 'vite.config.ts')).mtimeMs);
  if (stale) {
    const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'error'], { cwd: root, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`vite build failed: ${build.stderr}`);
  }
  return JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
}

/** The chunks `starts` load: static imports, and on-demand ones unless they are other pages' routes. */
function reachable(manifest: Record<string, ManifestChunk>, starts: string[], onDemand: boolean) {
  const seen = new Set<string>();
  const pending = [...starts];
  while (pending.length > 0) {
    const key = pending.pop()!;
    if (seen.has(key)) continue;
    seen.add(key);
    const chunk = manifest[key]!;
    pending.push(...(chunk.imports ?? []));
    if (onDemand) pending.push(...(chunk.dynamicImports ?? []).filter((next) => !next.endsWith('.lazy.tsx')));
  }
  return seen;
}

describe('bundle budget', () => {
  it('keeps the JavaScript of /dashboards/default under 250 kB gzipped', () => {
    const manifest = freshManifest();
    const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry)!;
    const shell = reachable(manifest, [entry], false);
    const own = [...reachable(manifest, [ROUTE], true)].filter((key) => !shell.has(key));
    expect(own).toContain('src/areas/dashboards/echarts.ts');
    expect(own).toContain('src/areas/dashboards/echarts-map.ts');
    const sizes = own.map((key) => ({
      file: manifest[key]!.file,
      gzip: gzipSync(readFileSync(join(dist, manifest[key]!.file))).length,
    }));
    const total = sizes.reduce((sum, { gzip }) => sum + gzip, 0);
    expect(
      total,
      `${(total / 1024).toFixed(1)} kB gzipped:\n${sizes.map((size) => `${size.file} ${size.gzip}`).join('\n')}`,
    ).toBeLessThan(BUDGET_BYTES);
  }, 180_000);
});
