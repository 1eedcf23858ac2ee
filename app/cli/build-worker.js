/**
 * Bundles the identification engine's detail worker (app/services/identification/detail.worker.ts)
 * into build/detail-worker.js, beside the server build, which starts it as a worker thread.
 * Run by `npm run build` after `remix build`; the server works without it (one thread does all).
 *
 *   node app/cli/build-worker.js [outfile]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Bundles the worker (the engine's own modules inlined, npm packages left to node_modules). */
export async function buildDetailWorker(outfile = path.join(root, 'build/detail-worker.js')) {
  const { dependencies } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  await build({
    entryPoints: [path.join(root, 'app/services/identification/detail.worker.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // the packages by name: this esbuild's `packages: 'external'` would take the `~/` alias for one
    external: Object.keys(dependencies),
    logLevel: 'warning',
  });
  return outfile;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = await buildDetailWorker(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
  console.log(`detail worker: ${path.relative(root, out)}`);
}
