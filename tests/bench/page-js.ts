/**
 * JavaScript each page loads, from the built Remix manifest (no browser): the entry, root and the
 * page's route modules (with their parents, for nested routes) and every chunk they import, gzip
 * level 9, summed, for every route that has a page. The manifest itself is not counted: the page
 * inlines it (lazy route discovery). Prints KB and files per page (`--files`: each file too) and
 * fails (exit 1) when a page is over `--budget` KB (100) or `--max-files` (12): issue 59's budget.
 *
 *   npx tsx tests/bench/page-js.ts [--budget 100] [--max-files 12] [--files]
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

// every route with a page (a default export); resource routes load no JavaScript
const pageRoutes = Object.keys(manifest.routes).filter((id) => {
  if (id === 'root') return false;
  const file = ['tsx', 'ts', 'jsx', 'js'].map((ext) => path.join(root, 'app', `${id}.${ext}`)).find((f) => fs.existsSync(f));
  return !!file && /^export default /m.test(fs.readFileSync(file, 'utf8'));
});
const pages: Record<string, string> = Object.fromEntries(pageRoutes.map((id) => [id.replace(/^routes\//, ''), id]));
const detail = args.includes('--files');

let over = 0;
for (const [name, id] of Object.entries(pages)) {
  if (!manifest.routes[id]) continue;
  // the manifest itself is inlined in the page (lazy route discovery): not a file the page loads
  const files = new Set<string>([manifest.entry.module, ...manifest.entry.imports]);
  for (let r: RouteEntry | undefined = manifest.routes[id]; r; r = r.parentId ? manifest.routes[r.parentId] : undefined) {
    files.add(r.module);
    for (const i of r.imports ?? []) files.add(i);
  }
  const kb = [...files].reduce((sum, f) => sum + gzipOf(f), 0) / 1024;
  const bad = kb > BUDGET_KB || files.size > MAX_FILES;
  if (bad) over++;
  console.log(`${name.padEnd(32)} ${kb.toFixed(1).padStart(6)} KB gzip in ${String(files.size).padStart(2)} files${bad ? '  << over budget' : ''}`);
  if (detail) for (const f of files) console.log(`    ${(gzipOf(f) / 1024).toFixed(1).padStart(5)} KB  ${f}`);
}
console.log(`budget: ${BUDGET_KB} KB gzip and ${MAX_FILES} files per page; ${over} page(s) over`);
if (over) process.exitCode = 1;
