/** Where to go after signing in: only paths on this site (no `//host`, no scheme, no backslash). */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  if (typeof to !== 'string' || !to) return fallback;
  const value = to.trim();
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\') || [...value].some((c) => c.charCodeAt(0) < 0x20)) return fallback;
  // Going back to the sign-in or sign-out endpoints after signing in would loop or undo it.
  if (/^\/api\/(login|logout)(\/|\?|$)/.test(value)) return fallback;
  // a Location header carries ASCII only: '/日本' goes as '/%E6%97%A5%E6%9C%AC' (a lone surrogate
  // cannot be encoded at all and falls back)
  try {
    return value.replace(/[^\x21-\x7e]+/g, (run) => encodeURIComponent(run));
  } catch {
    return fallback;
  }
}
