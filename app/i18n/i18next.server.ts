/** Language detection (our `lng` cookie; `tw` reads as `hk`; default `hk`) and server-side translation. */
import { createInstance, type i18n, type TFunction } from 'i18next';
import { longLivedCookie } from '~/utils/cookies.server';
import { DEFAULT_LANGUAGE, normaliseLanguage, type Language } from '#contract/languages';
import { LANGUAGE_COOKIE, NAMESPACES } from './config';
import { resources } from './resources.server';

export const languageCookie = longLivedCookie(LANGUAGE_COOKIE);

// The loaders of one page share its Request: the cookie is read once per request, not once per caller.
const languageOf = new WeakMap<Request, Promise<Language>>();

export function getLanguage(request: Request): Promise<Language> {
  let lang = languageOf.get(request);
  if (!lang) {
    lang = languageCookie
      .parse(request.headers.get('Cookie'))
      .then((stored: unknown) => normaliseLanguage(typeof stored === 'string' ? stored : DEFAULT_LANGUAGE));
    languageOf.set(request, lang);
  }
  return lang;
}

const instances = new Map<Language, Promise<i18n>>();

/**
 * One i18next per language, made on first use and shared by every request (making one per request cost
 * every page measurably): the resources never change while the server runs and nothing changes an
 * instance's language. Only that language and the English fallback are loaded into it.
 */
export function i18nFor(lang: Language): Promise<i18n> {
  let instance = instances.get(lang);
  if (!instance) {
    const made = createInstance();
    instance = made
      .init({
        lng: lang,
        fallbackLng: 'en',
        ns: [...NAMESPACES],
        defaultNS: 'common',
        resources: { [lang]: resources[lang], en: resources.en },
        interpolation: { escapeValue: false },
      })
      .then(() => made);
    instances.set(lang, instance);
  }
  return instance;
}

/** A translate function for a loader or action, in the request's language. */
export async function translator(
  request: Request,
  ns: (typeof NAMESPACES)[number] = 'common',
): Promise<{ lang: Language; t: TFunction<(typeof NAMESPACES)[number]> }> {
  const lang = await getLanguage(request);
  return { lang, t: (await i18nFor(lang)).getFixedT(lang, ns) };
}
