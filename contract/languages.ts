/**
 * The 18 languages of spec §1, their BCP-47 tags (for <html lang> and Intl) and how a stored code is read. A
 * module of its own, not in enums: a page's first-load script does without the lists (the root loader hands
 * the page its language and tag); only the language pickers need them all.
 */

export const LANGUAGES = [
  'hk',
  'en',
  'jp',
  'kr',
  'th',
  'vn',
  'fr',
  'de',
  'ru',
  'spa',
  'pt',
  'ar',
  'it',
  'tr',
  'id',
  'my',
  'hi',
  'cs',
] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'hk';
/** A stored `tw` is read as `hk` (spec §1); anything unknown falls back to the default. */
export function normaliseLanguage(code: string | null | undefined): Language {
  const c = (code ?? '').trim().toLowerCase();
  if (c === 'tw') return 'hk';
  return (LANGUAGES as readonly string[]).includes(c) ? (c as Language) : DEFAULT_LANGUAGE;
}

/** Each code's BCP-47 tag. */
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
