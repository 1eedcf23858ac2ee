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

/**
 * `path` with `?redirectTo=` when the target is not the home page. Sign-in and sign-up forms post to
 * this URL, so a refused attempt renders its page with the target still there (without JavaScript
 * the page after a failed post is rendered from the post's URL).
 */
export function withRedirectTo(path: string, redirectTo: string): string {
  const target = safeRedirect(redirectTo, '/');
  return target === '/' ? path : `${path}?redirectTo=${encodeURIComponent(target)}`;
}
