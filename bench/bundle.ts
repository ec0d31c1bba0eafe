/**
 * First-load JS per route, gzipped: the entry, the root route and the page's route module with every
 * chunk they import statically, as Remix's own manifest lists them. Lazily imported chunks (the chart
 * library) are not first-load and are reported apart. Sizes are deterministic: a budget check may be a test.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

interface RouteEntry {
  id: string;
  parentId?: string;
  module: string;
  imports?: string[];
}
interface RemixManifest {
  entry: { module: string; imports: string[] };
  routes: Record<string, RouteEntry>;
}

export function readManifest(clientDir: string): RemixManifest {
  const assets = path.join(clientDir, 'assets');
  const file = fs.readdirSync(assets).find((f) => /^manifest-[\w-]+\.js$/.test(f));
  if (!file) throw new Error(`no Remix manifest in ${assets}: build the app first`);
  const text = fs.readFileSync(path.join(assets, file), 'utf8');
  return JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) as RemixManifest;
}

const gzCache = new Map<string, number>();
function gzipSize(clientDir: string, asset: string): number {
  let size = gzCache.get(asset);
  if (size === undefined) {
    size = zlib.gzipSync(fs.readFileSync(path.join(clientDir, asset)), { level: 9 }).length;
    gzCache.set(asset, size);
  }
  return size;
}

/** The files a first visit to this route downloads before it is interactive. */
export function firstLoadFiles(manifest: RemixManifest, routeId: string): string[] {
  const files = new Set<string>([manifest.entry.module, ...manifest.entry.imports]);
  for (let r: RouteEntry | undefined = manifest.routes[routeId]; r; r = r.parentId ? manifest.routes[r.parentId] : undefined) {
    files.add(r.module);
    for (const i of r.imports ?? []) files.add(i);
  }
  return [...files];
}

export function firstLoadGzip(clientDir: string, routeId: string): number {
  const manifest = readManifest(clientDir);
  if (!manifest.routes[routeId]) throw new Error(`no route ${routeId} in the manifest`);
  return firstLoadFiles(manifest, routeId).reduce((sum, f) => sum + gzipSize(clientDir, f), 0);
}

/** Chunks in the build that no route loads at first (lazy imports), with their gzipped sizes. */
export function lazyChunks(clientDir: string): { file: string; gzip: number }[] {
  const manifest = readManifest(clientDir);
  const eager = new Set(Object.keys(manifest.routes).flatMap((id) => firstLoadFiles(manifest, id)));
  return fs
    .readdirSync(path.join(clientDir, 'assets'))
    .filter((f) => f.endsWith('.js') && !f.startsWith('manifest-'))
    .map((f) => `/assets/${f}`)
    .filter((f) => !eager.has(f))
    .map((file) => ({ file, gzip: gzipSize(clientDir, file) }))
    .filter((c) => c.gzip > 1024);
}

export const BUDGETS_KIB: Record<string, number> = { 'routes/_index': 100, 'routes/trade': 140 };

export function bundleReport(clientDir: string): string[] {
  const lines: string[] = [];
  const manifest = readManifest(clientDir);
  for (const [routeId, budget] of Object.entries(BUDGETS_KIB)) {
    if (!manifest.routes[routeId]) {
      lines.push(`first-load JS of ${routeId}: route not built`);
      continue;
    }
    const kib = firstLoadGzip(clientDir, routeId) / 1024;
    lines.push(
      `first-load JS of ${routeId.replace('routes/', '/').replace('/_index', '/')}: ${kib.toFixed(1)} KiB gz (budget ${budget} KiB)`,
    );
  }
  for (const c of lazyChunks(clientDir)) lines.push(`  lazy chunk ${c.file}: ${(c.gzip / 1024).toFixed(1)} KiB gz (not first-load)`);
  return lines;
}
