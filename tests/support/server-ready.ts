/**
 * Whether the server at `base` answers and its identification index is built: /healthz answers 200
 * as soon as the web is up and says the index's state beside it (identify answers 503 "warming up"
 * until it is 'ready').
 */
export async function identificationReady(base: string): Promise<boolean> {
  const res = await fetch(`${base}/healthz`).catch(() => null);
  if (!res?.ok) return false;
  const body = (await res.json().catch(() => null)) as { identification?: { state?: string } } | null;
  const state = body?.identification?.state;
  if (state === 'failed') throw new Error(`the identification index of ${base} failed to load`);
  return state === 'ready';
}
