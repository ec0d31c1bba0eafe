/**
 * `from` and other redirect targets are accepted only as a path on our own origin: `/x`, never `//x`,
 * `/\x`, an encoded slash that decodes to either, or anything with a scheme.
 */
const BASE = 'http://same-origin.invalid';

export function safeRedirectPath(target: unknown, fallback = '/'): string {
  if (typeof target !== 'string' || target.length === 0 || target.length > 2048) return fallback;
  if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return fallback;
  // Control characters and backslashes are read as slashes by some browsers.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(target)) return fallback;
  let decoded = target;
  try {
    // Decode repeatedly: %252F%252F must not become // after a second decoding somewhere.
    for (let i = 0; i < 3 && decoded.includes('%'); i++) decoded = decodeURIComponent(decoded);
  } catch {
    return fallback;
  }
  // eslint-disable-next-line no-control-regex
  if (decoded.startsWith('//') || decoded.startsWith('/\\') || /[\u0000-\u001f\u007f\\]/.test(decoded)) return fallback;
  let url: URL;
  try {
    url = new URL(target, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  // Judge the path after normalisation: `/.//evil.example` and `/a/..//evil.example` become `//evil.example`.
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (path.startsWith('//') || path.startsWith('/\\') || new URL(path, BASE).origin !== BASE) return fallback;
  return path;
}
