/** How the server decides a request's language: the `lng` cookie alone, read as contract/languages reads a code. */
import { describe, expect, test } from 'vitest';
import { DEFAULT_LANGUAGE } from '#contract/languages';
import { getLanguage, i18nFor, languageCookie } from './i18next.server';

async function request({ cookie, acceptLanguage, url = 'http://localhost/' }: { cookie?: string; acceptLanguage?: string; url?: string }) {
  const headers = new Headers();
  if (cookie !== undefined) headers.set('Cookie', (await languageCookie.serialize(cookie)).split(';')[0]!);
  if (acceptLanguage) headers.set('Accept-Language', acceptLanguage);
  return new Request(url, { headers });
}

describe('getLanguage', () => {
  test.each([
    ['de', 'de'],
    ['ar', 'ar'],
    ['spa', 'spa'],
    ['EN', 'en'],
    [' fr ', 'fr'],
    // Spec §1: a stored `tw` is read as `hk`.
    ['tw', 'hk'],
  ])('the language cookie decides: %j is %s', async (stored, lang) => {
    expect(await getLanguage(await request({ cookie: stored }))).toBe(lang);
  });

  test.each(['xx', 'es', '', 'en-US', 'de,en', 'pt-BR', 'fr;q=0.5'])(
    'a cookie that is not one of our codes, as it is, falls back to the default: %j',
    async (stored) => {
      expect(await getLanguage(await request({ cookie: stored }))).toBe(DEFAULT_LANGUAGE);
    },
  );

  test('without the cookie it is the default, whatever the browser accepts (shared pages are cached by the cookie alone)', async () => {
    for (const acceptLanguage of [undefined, 'de-DE,de;q=0.9,en;q=0.8', 'en', 'my']) {
      expect(await getLanguage(await request({ acceptLanguage }))).toBe(DEFAULT_LANGUAGE);
    }
  });

  test("with the cookie, Accept-Language and a page's ?lng= change nothing (only /language stores a choice)", async () => {
    expect(await getLanguage(await request({ cookie: 'fr', acceptLanguage: 'de', url: 'http://localhost/trade?lng=en' }))).toBe('fr');
    expect(await getLanguage(await request({ url: 'http://localhost/?lng=de' }))).toBe(DEFAULT_LANGUAGE);
  });

  test('a cookie not signed and encoded as ours falls back to the default', async () => {
    expect(await getLanguage(new Request('http://localhost/', { headers: { Cookie: 'lng=de' } }))).toBe(DEFAULT_LANGUAGE);
  });

  test('the loaders of one request share one answer', async () => {
    const r = await request({ cookie: 'de' });
    expect(getLanguage(r)).toBe(getLanguage(r));
  });
});

describe('i18nFor', () => {
  test('one instance per language, shared, in that language with English as the fallback', async () => {
    const de = await i18nFor('de');
    expect(await i18nFor('de')).toBe(de);
    expect(de.language).toBe('de');
    expect(de.options.fallbackLng).toEqual(['en']);
    expect(de.getFixedT('de', 'common')('actions.loading')).toBe('Wird geladen…');
  });
});
