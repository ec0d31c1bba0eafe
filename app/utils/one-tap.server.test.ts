import { describe, expect, test } from 'vitest';
import { oneTapChosen, oneTapCookieHeader } from './one-tap.server';

const withCookie = (cookie?: string) => new Request('http://localhost/trade', { headers: cookie ? { Cookie: cookie } : {} });

describe('one-tap trading cookie', () => {
  test('off by default, on only with the cookie set to 1', () => {
    expect(oneTapChosen(withCookie())).toBe(false);
    expect(oneTapChosen(withCookie('lng=en'))).toBe(false);
    expect(oneTapChosen(withCookie('lng=en; __Host-one-tap=1'))).toBe(true);
    expect(oneTapChosen(withCookie('__Host-one-tap=0'))).toBe(false);
    expect(oneTapChosen(withCookie('x__Host-one-tap=1'))).toBe(false);
  });
  test('the header sets it for three years or clears it, for this host only', () => {
    expect(oneTapCookieHeader(true)).toMatch(/^__Host-one-tap=1; Max-Age=\d+; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    expect(oneTapCookieHeader(false)).toMatch(/^__Host-one-tap=; Max-Age=0;/);
  });
});
