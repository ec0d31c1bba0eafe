/** Language detection (our `lng` cookie; `tw` reads as `hk`; default `hk`) and server-side translation. */
import { longLivedCookie } from '~/utils/cookies.server';
import { RemixI18Next } from 'remix-i18next/server';
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE, LANGUAGES, NAMESPACES, normaliseLanguage, type Language } from './config';
import { resources } from './resources.server';

export const languageCookie = longLivedCookie(LANGUAGE_COOKIE);

export async function getLanguage(request: Request): Promise<Language> {
  const stored: unknown = await languageCookie.parse(request.headers.get('Cookie'));
  return normaliseLanguage(typeof stored === 'string' ? stored : DEFAULT_LANGUAGE);
}

export const i18nServer = new RemixI18Next({
  detection: {
    supportedLanguages: [...LANGUAGES],
    fallbackLanguage: DEFAULT_LANGUAGE,
    order: ['custom'],
    findLocale: (request) => getLanguage(request),
  },
  i18next: { resources, ns: [...NAMESPACES], defaultNS: 'common', fallbackLng: 'en', interpolation: { escapeValue: false } },
});

/** A translate function for a loader or action, in the request's language. */
export async function translator(request: Request, ns: (typeof NAMESPACES)[number] = 'common') {
  const lang = await getLanguage(request);
  return { lang, t: await i18nServer.getFixedT(lang, ns) };
}
