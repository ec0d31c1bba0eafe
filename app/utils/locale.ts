import { useRouteLoaderData } from '@remix-run/react';
import type { Language } from '~/i18n/config';

/** The default language's tag (the language table stays out of every page's script: see contract/languages). */
export const DEFAULT_LOCALE = 'zh-Hant-HK';

/** The BCP-47 tag of the page's language, for Intl (the root loader's, from contract/languages). */
export function useLocale(): string {
  return useRouteLoaderData<{ locale: string }>('root')?.locale ?? DEFAULT_LOCALE;
}

export function useLanguage(): Language {
  return useRouteLoaderData<{ lang: Language }>('root')?.lang ?? 'hk';
}
