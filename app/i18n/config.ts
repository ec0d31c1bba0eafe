/** The 18 languages of spec §1: BCP-47 tags for <html lang> and Intl, direction and names (flags: public/flags/<code>.svg). */
import { DEFAULT_LANGUAGE, LANGUAGE_TAGS, LANGUAGES, normaliseLanguage, type Language } from '#contract/enums';

export { DEFAULT_LANGUAGE, LANGUAGES, normaliseLanguage, type Language };

/** One namespace per area of the app (a file per namespace per language under locales/<code>/). */
export const NAMESPACES = [
  'common',
  'auth',
  'mine',
  'market',
  'trade',
  'orders',
  'deposit',
  'withdraw',
  'content',
  'identity',
  'alerts',
] as const;
export type Namespace = (typeof NAMESPACES)[number];

/** BCP-47 tags for <html lang> and Intl (one list, in contract/, shared with the upstream). */
export const BCP47: Record<Language, string> = LANGUAGE_TAGS;

export function direction(lang: Language): 'rtl' | 'ltr' {
  return lang === 'ar' ? 'rtl' : 'ltr';
}

export const LANGUAGE_COOKIE = 'lng';
