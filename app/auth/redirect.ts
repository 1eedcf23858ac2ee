/** Where to go after signing in: only paths on this site (no `//host`, no scheme, no backslash). */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  if (typeof to !== 'string' || !to) return fallback;
  const value = to.trim();
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\') || [...value].some((c) => c.charCodeAt(0) < 0x20)) return fallback;
  // Going back to the sign-in or sign-out endpoints after signing in would loop or undo it.
  if (/^\/api\/(login|logout)(\/|\?|$)/.test(value)) return fallback;
  return value;
}
