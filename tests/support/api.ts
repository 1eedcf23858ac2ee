/** Calling route modules in integration tests: a Request with a session cookie, the JSON answer. */
import { createUserSession } from '~/auth/session.server';
import type { Role } from '~/db/schema';
import { createUser } from './factories';

export type Handler = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => Promise<Response>;

export const NON_ADMIN_ROLES: Role[] = ['player', 'manager', 'assistant_coach', 'vendor'];

/** A user of `role` and the Cookie header of a session of theirs. */
export async function session(role: Role, overrides: Parameters<typeof createUser>[0] = {}) {
  const user = await createUser({ role, ...overrides });
  const cookie = (await createUserSession(new Request('http://localhost/'), user.id)).split(';')[0];
  return { user, cookie };
}

export function request(url: string, init: RequestInit & { cookie?: string; json?: unknown } = {}) {
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set('Cookie', init.cookie);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(init.json);
  }
  return new Request(`http://localhost${url}`, { method: init.method ?? 'GET', headers, body });
}

export async function call(handler: unknown, req: Request, params: Record<string, string> = {}) {
  const response = await (handler as Handler)({ request: req, params, context: {} });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the JSON freely
  return { status: response.status, body: body as any, headers: response.headers };
}

/** A page action's answer: the redirect's location and the flash toast cookie, or the JSON. */
export async function post(handler: unknown, url: string, cookie: string, fields: Record<string, string | string[] | Blob>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (Array.isArray(v)) v.forEach((x) => form.append(k, x));
    else form.append(k, v);
  }
  try {
    return await call(handler, request(url, { method: 'POST', cookie, body: form }));
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, body: null, headers: thrown.headers };
    throw thrown;
  }
}
