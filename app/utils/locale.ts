import { useRouteLoaderData } from '@remix-run/react';
import { BCP47, type Language } from '~/i18n/config';

/** The BCP-47 tag of the page's language, for Intl. */
export function useLocale(): string {
  const root = useRouteLoaderData<{ lang: Language }>('root');
  return BCP47[root?.lang ?? 'hk'];
}

export function useLanguage(): Language {
  return useRouteLoaderData<{ lang: Language }>('root')?.lang ?? 'hk';
}
