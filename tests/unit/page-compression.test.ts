import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import compression from 'compression';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { BROTLI_PAGE_PARAMS, endWhole, pageEncoding } from '../../app/cli/page-compression.js';

/** A page compressed in one call, behind the compression middleware as on the server. */
let server: http.Server | null = null;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

const PAGE = `<!DOCTYPE html><html><body>${Array.from({ length: 400 }, (_, i) => `<a href="/pins/${i}">Pin ${i}</a>`).join('')}</body></html>`;

async function start() {
  const app = express();
  app.use(compression({ brotli: { params: BROTLI_PAGE_PARAMS } }));
  app.get('/page', (req, res) => {
    res.set('Content-Type', 'text/html; charset=utf-8');
    endWhole(req, res, Buffer.from(PAGE));
  });
  app.get('/data', (req, res) => {
    res.set('Content-Type', 'application/json; charset=utf-8');
    endWhole(req, res, Buffer.from(JSON.stringify({ page: PAGE })));
  });
  app.get('/health', (req, res) => {
    res.set('Content-Type', 'application/json; charset=utf-8');
    endWhole(req, res, Buffer.from('{"status":"ok"}'));
  });
  app.get('/small', (req, res) => {
    res.set('Content-Type', 'text/html; charset=utf-8');
    endWhole(req, res, Buffer.from('<p>short</p>'));
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server!.once('listening', resolve));
  const port = (server!.address() as AddressInfo).port;
  // raw bytes: fetch would decode them
  return (path: string, acceptEncoding?: string) =>
    new Promise<{ encoding: string | undefined; vary: string | undefined; length: number; text: string }>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path, headers: acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {} }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            const raw = Buffer.concat(chunks);
            const encoding = res.headers['content-encoding'];
            const text = (encoding === 'br' ? zlib.brotliDecompressSync(raw) : encoding === 'gzip' ? zlib.gunzipSync(raw) : raw).toString('utf8');
            expect(Number(res.headers['content-length'])).toBe(raw.length);
            resolve({ encoding, vary: res.headers.vary, length: raw.length, text });
          });
        })
        .on('error', reject);
    });
}

describe('a page compressed in one call', () => {
  it('sends brotli to a browser that takes it, the same page, much smaller', async () => {
    const get = await start();
    const page = await get('/page', 'gzip, deflate, br');
    expect(page.encoding).toBe('br');
    expect(page.text).toBe(PAGE);
    expect(page.length).toBeLessThan(PAGE.length / 4);
    expect(page.vary).toMatch(/Accept-Encoding/i);
  });

  it('sends gzip, or the page as it is, to a client that takes only that', async () => {
    const get = await start();
    expect(await get('/page', 'gzip')).toMatchObject({ encoding: 'gzip', text: PAGE });
    expect(await get('/page', 'br;q=0, gzip')).toMatchObject({ encoding: 'gzip', text: PAGE });
    expect(await get('/page')).toMatchObject({ encoding: undefined, text: PAGE, length: PAGE.length });
    expect(await get('/small', 'br')).toMatchObject({ encoding: undefined, text: '<p>short</p>' });
  });

  it('compresses JSON the same way, but not a short answer', async () => {
    const get = await start();
    const data = await get('/data', 'gzip, deflate, br');
    expect(data.encoding).toBe('br');
    expect(JSON.parse(data.text)).toEqual({ page: PAGE });
    expect(await get('/health', 'gzip, deflate, br')).toMatchObject({ encoding: undefined, text: '{"status":"ok"}' });
  });

  it('reads Accept-Encoding with its weights', () => {
    expect(pageEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pageEncoding('gzip;q=1.0, br;q=0')).toBe('gzip');
    expect(pageEncoding('*')).toBe('br');
    expect(pageEncoding('identity')).toBeNull();
    expect(pageEncoding('deflate')).toBeNull();
    expect(pageEncoding(undefined)).toBeNull();
  });
});
