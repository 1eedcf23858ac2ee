import { gzipSync } from 'node:zlib';
import { expect, test } from './support';

// Budget for the JavaScript the home page loads, gzip-compressed and summed (README: Page weight).
const BUDGET_KB = 150;

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'measured once, with JavaScript on');

test('the home page loads at most 150 KB of JavaScript (gzip)', async ({ page, request }, testInfo) => {
  const scripts = new Set<string>();
  page.on('request', (req) => {
    if (req.resourceType() === 'script') scripts.add(req.url());
  });
  await page.goto('/', { waitUntil: 'networkidle' });
  let total = 0;
  for (const url of scripts) {
    const body = await (await request.get(url)).body();
    total += gzipSync(body, { level: 9 }).byteLength;
  }
  const kb = total / 1024;
  console.log(`home page JavaScript: ${scripts.size} files, ${kb.toFixed(1)} KB gzip`);
  testInfo.annotations.push({ type: 'js-gzip-kb', description: kb.toFixed(1) });
  expect(scripts.size).toBeGreaterThan(0);
  expect(kb).toBeLessThanOrEqual(BUDGET_KB);
});
