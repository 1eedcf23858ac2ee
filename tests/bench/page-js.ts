/**
 * JavaScript each page loads, from the built Remix manifest (no browser): the manifest, the
 * entry, root and the page's route modules (with their parents, for nested routes) and every chunk
 * they import, gzip level 9, summed. Prints KB and files per page and fails (exit 1) when a page is
 * over `--budget` KB (100) or `--max-files` (12): the budget of issue 59.
 *
 *   npx tsx tests/bench/page-js.ts [--budget 100] [--max-files 12]
 * Needs `npm run build` first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const BUDGET_KB = arg('budget', 100);
const MAX_FILES = arg('max-files', 12);

interface RouteEntry {
  id: string;
  parentId?: string;
  module: string;
  imports?: string[];
}

const buildDir = path.join(root, 'public/build');
const manifestFile = fs.readdirSync(buildDir).find((f) => /^manifest-.*\.js$/.test(f));
if (!manifestFile) throw new Error('no manifest: run `npm run build` first');
const text = fs.readFileSync(path.join(buildDir, manifestFile), 'utf8');
const manifest = JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) as { entry: { module: string; imports: string[] }; routes: Record<string, RouteEntry> };

const gz = new Map<string, number>();
const gzipOf = (url: string) => {
  if (!gz.has(url)) gz.set(url, gzipSync(fs.readFileSync(path.join(root, 'public', url)), { level: 9 }).byteLength);
  return gz.get(url) as number;
};

const pages: Record<string, string> = {
  home: 'routes/_index',
  browse: 'routes/browse',
  'pin detail': 'routes/pins.$id',
  identify: 'routes/identify',
  collection: 'routes/collection',
  marketplace: 'routes/marketplace',
  teams: 'routes/teams',
  'team detail': 'routes/teams_.$id',
  profile: 'routes/profile',
  'admin users': 'routes/admin.users',
  cart: 'routes/cart',
};

let over = 0;
for (const [name, id] of Object.entries(pages)) {
  if (!manifest.routes[id]) continue;
  const files = new Set<string>([`/build/${manifestFile}`, manifest.entry.module, ...manifest.entry.imports]);
  for (let r: RouteEntry | undefined = manifest.routes[id]; r; r = r.parentId ? manifest.routes[r.parentId] : undefined) {
    files.add(r.module);
    for (const i of r.imports ?? []) files.add(i);
  }
  const kb = [...files].reduce((sum, f) => sum + gzipOf(f), 0) / 1024;
  const bad = kb > BUDGET_KB || files.size > MAX_FILES;
  if (bad) over++;
  console.log(`${name.padEnd(12)} ${kb.toFixed(1).padStart(6)} KB gzip in ${String(files.size).padStart(2)} files${bad ? '  << over budget' : ''}`);
}
console.log(`budget: ${BUDGET_KB} KB gzip and ${MAX_FILES} files per page; ${over} page(s) over`);
if (over) process.exitCode = 1;
