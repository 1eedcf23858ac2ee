/** The server fails closed on configuration, and its HTTPS redirect is not steered by a forged Host. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_SESSION_SECRET, configurationProblem, httpsRedirectTarget } from '../../app/cli/startup-checks.js';

describe('startup checks', () => {
  it('refuses production without SESSION_SECRET, unless the demo says it may', () => {
    expect(configurationProblem({ NODE_ENV: 'production' })).toMatch(/SESSION_SECRET is not set/);
    expect(configurationProblem({})).toMatch(/SESSION_SECRET is not set/);
    expect(configurationProblem({ NODE_ENV: 'production', SESSION_SECRET: '  ' })).toMatch(/SESSION_SECRET is not set/);
    expect(configurationProblem({ NODE_ENV: 'production', SESSION_SECRET: 'a-long-random-secret' })).toBeNull();
    expect(configurationProblem({ NODE_ENV: 'production', PINDEX_ALLOW_DEV_SECRET: '1' })).toBeNull();
    expect(configurationProblem({ NODE_ENV: 'development' })).toBeNull();
  });

  it('refuses to start production on the example secret, also among rotated secrets', () => {
    expect(configurationProblem({ NODE_ENV: 'production', SESSION_SECRET: EXAMPLE_SESSION_SECRET })).toMatch(/still \.env\.example's example/);
    expect(configurationProblem({ NODE_ENV: 'production', SESSION_SECRET: `new-secret, ${EXAMPLE_SESSION_SECRET}` })).toMatch(/still \.env\.example's example/);
    expect(configurationProblem({ NODE_ENV: 'production', SESSION_SECRET: ' , ' })).toMatch(/SESSION_SECRET is not set/);
    expect(configurationProblem({ NODE_ENV: 'development', SESSION_SECRET: EXAMPLE_SESSION_SECRET })).toBeNull();
  });

  it('refuses to start without the server build, after the secret (`npm run build` makes it)', () => {
    const missing = path.resolve(__dirname, 'no-such-build/index.js');
    expect(configurationProblem({ NODE_ENV: 'development' }, { buildPath: missing })).toBe('the server build (build/index.js) is missing. Run `npm run build` first.');
    expect(configurationProblem({ NODE_ENV: 'production' }, { buildPath: missing })).toMatch(/SESSION_SECRET is not set/);
    expect(configurationProblem({ NODE_ENV: 'development' }, { buildPath: __filename })).toBeNull();
  });

  it('the server process exits with the reason instead of serving on the published secret', () => {
    const env = { PATH: process.env.PATH ?? '', NODE_ENV: 'production', PORT: '0', ENV_FILE: 'off' } as NodeJS.ProcessEnv;
    const run = spawnSync(process.execPath, [path.resolve(__dirname, '../../app/cli/server.js')], { env, encoding: 'utf8', timeout: 20_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('PinDex will not start: SESSION_SECRET is not set');
  });

  it('redirects plain HTTP to APP_URL’s host, not to the Host header', () => {
    expect(httpsRedirectTarget('/browse?q=1', 'evil.example', 'https://pins.example.org')).toBe('https://pins.example.org/browse?q=1');
    expect(httpsRedirectTarget('/x', 'pins.example.org', undefined)).toBe('https://pins.example.org/x');
    expect(httpsRedirectTarget('/x', 'pins.example.org', 'not a url')).toBe('https://pins.example.org/x');
  });
});
