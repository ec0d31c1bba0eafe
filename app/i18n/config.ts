/** The 18 languages of spec §1: direction and namespaces (BCP-47 tags: contract/languages; flags: public/flags/<code>.svg). */
import type { Language } from '#contract/languages';

export type { Language };

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
  'security',
  'devices',
  'statements',
  'contract',
] as const;
export type Namespace = (typeof NAMESPACES)[number];

export function direction(lang: Language): 'rtl' | 'ltr' {
  return lang === 'ar' ? 'rtl' : 'ltr';
}

export const LANGUAGE_COOKIE = 'lng';
