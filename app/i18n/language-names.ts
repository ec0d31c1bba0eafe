/**
 * Each language's name in itself, as a picker shows it: only the pickers (the drawer, /language) and the
 * servers need the eighteen, so they stay out of every page's first-load script (vite.config.ts's shell).
 */
import type { Language } from '#contract/enums';

export const LANGUAGE_NAMES: Record<Language, string> = {
  hk: '繁體中文',
  en: 'English',
  jp: '日本語',
  kr: '한국어',
  th: 'ไทย',
  vn: 'Tiếng Việt',
  fr: 'Français',
  de: 'Deutsch',
  ru: 'Русский',
  spa: 'Español',
  pt: 'Português',
  ar: 'العربية',
  it: 'Italiano',
  tr: 'Türkçe',
  id: 'Bahasa Indonesia',
  my: 'Bahasa Melayu',
  hi: 'हिन्दी',
  cs: 'Čeština',
};
