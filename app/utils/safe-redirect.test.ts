import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { safeRedirectPath } from './safe-redirect';

/** Paths built from the pieces that normalisation rewrites: dots (plain and encoded), empty segments, slashes. */
const dotPaths = fc
  .array(fc.constantFrom('.', '..', '%2e', '%2E%2e', '', 'a', 'evil.example', '\\', '%2f', '%5c', '/'), { minLength: 1, maxLength: 8 })
  .map((parts) => `/${parts.join('/')}`);

describe('safeRedirectPath', () => {
  test.each([
    ['//evil.com'],
    ['/\\evil.com'],
    ['/%2F%2Fevil.com'],
    ['/%252F%252Fevil.com'],
    ['https://evil.com'],
    ['javascript:alert(1)'],
    ['\\\\evil.com'],
    ['/\t/evil.com'],
    ['evil.com'],
    [''],
    ['/.//evil.example'],
    ['/..//evil.example'],
    ['/a/..//evil.example'],
    ['/%2e//evil.example'],
    ['/%2e%2e//evil.example'],
    ['/././/evil.example'],
    ['/a/b/../..//evil.example'],
  ])('refuses %j', (target) => {
    expect(safeRedirectPath(target, '/fallback')).toBe('/fallback');
  });

  test('keeps a same-origin path with its query and hash', () => {
    expect(safeRedirectPath('/order?type=1#top')).toBe('/order?type=1#top');
    expect(safeRedirectPath('/mine/charge')).toBe('/mine/charge');
  });

  test('any input either falls back or stays on our origin', () => {
    const origin = 'https://app.example.com';
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.webUrl(),
          fc.string().map((s) => `/${s}`),
          fc.string().map((s) => `/${encodeURIComponent(s)}`),
          dotPaths,
        ),
        (input) => {
          const out = safeRedirectPath(input, '/');
          expect(out.startsWith('/')).toBe(true);
          expect(out.startsWith('//')).toBe(false);
          // A browser resolving the Location against our page stays on our origin.
          expect(new URL(out, origin).origin).toBe(origin);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
