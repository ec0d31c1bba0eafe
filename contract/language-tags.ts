/**
 * Each language code's BCP-47 tag, for <html lang> and Intl. A module of its own, not in enums: a page's
 * first-load script does without the table (the root loader hands the page its own tag), only the language
 * pickers need all of them.
 */
import type { Language } from './enums';

export const LANGUAGE_TAGS: Record<Language, string> = {
  hk: 'zh-Hant-HK',
  en: 'en',
  jp: 'ja',
  kr: 'ko',
  th: 'th',
  vn: 'vi',
  fr: 'fr',
  de: 'de',
  ru: 'ru',
  spa: 'es',
  pt: 'pt',
  ar: 'ar',
  it: 'it',
  tr: 'tr',
  id: 'id',
  my: 'ms',
  hi: 'hi',
  cs: 'cs',
};
