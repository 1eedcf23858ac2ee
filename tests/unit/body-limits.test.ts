/** Bodies over their route's limit are refused from the headers, before the body is read. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyLimit, bodyLimits, SMALL_BODY_BYTES, UPLOAD_BODY_BYTES } from '../../app/cli/body-limits.js';

let server: http.Server;
let port = 0;
let bytesRead = 0;

beforeAll(async () => {
  const app = express();
  app.use(bodyLimits());
  app.all('*', (req, res) => {
    req.on('data', (chunk: Buffer) => (bytesRead += chunk.length));
    req.on('end', () => res.json({ ok: true }));
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** Sends the headers and only the first KB of the body; resolves with the answer's status and time. */
function send(path: string, headers: Record<string, string>, body = Buffer.alloc(1024, 32)) {
  const started = Date.now();
  return new Promise<{ status: number; ms: number; text: string }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: Date.now() - started, text }));
    });
    req.on('error', reject);
    req.write(body);
    if (headers['Content-Length'] === String(body.length) || headers['Transfer-Encoding']) req.end();
  });
}

describe('body limits', () => {
  it('knows each kind of body’s limit', () => {
    expect(bodyLimit('/api/collections', 'application/json')).toBe(SMALL_BODY_BYTES);
    expect(bodyLimit('/signup', 'application/x-www-form-urlencoded')).toBe(SMALL_BODY_BYTES);
    expect(bodyLimit('/teams', 'multipart/form-data; boundary=x')).toBe(UPLOAD_BODY_BYTES);
    expect(bodyLimit('/api/identify', 'application/json')).toBeGreaterThan(UPLOAD_BODY_BYTES);
  });

  it('a 50 MB JSON body is refused with 413 at once, without being read', async () => {
    bytesRead = 0;
    const res = await send('/api/collections', { 'Content-Type': 'application/json', 'Content-Length': String(50 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toEqual({ error: 'Request body too large (max 1 MB)' });
    expect(res.ms).toBeLessThan(2000);
    expect(bytesRead).toBe(0);
  });

  it('an upload over five 5 MB photos is 413; one within passes; a streamed body of unknown length is 411', async () => {
    expect((await send('/teams', { 'Content-Type': 'multipart/form-data; boundary=x', 'Content-Length': String(UPLOAD_BODY_BYTES + 1) })).status).toBe(413);
    const small = Buffer.from('{"pinId":"x"}');
    expect((await send('/api/collections', { 'Content-Type': 'application/json', 'Content-Length': String(small.length) }, small)).status).toBe(200);
    const streamed = await send('/api/collections', { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
    expect(streamed.status).toBe(411);
    expect((await send('/profile', { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': String(2 * 1024 * 1024) })).text).toBe('Request body too large (max 1 MB)');
  });
});
