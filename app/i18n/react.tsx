/**
 * i18next for React, as much as this app uses: the page's instance in a context and `useTranslation(ns)`
 * giving its `t` for a namespace (the first, when given several: react-i18next's default). A change of
 * language reloads the document (routes/language), so nothing here listens for one, loads namespaces or
 * suspends; react-i18next did all that in 1.5 KiB gz of every page's first-load JS (issue 12).
 */
import type { i18n as I18n, TFunction } from 'i18next';
import { createContext, useContext, useMemo, type ReactNode } from 'react';

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ i18n, children }: { i18n: I18n; children: ReactNode }) {
  return <I18nContext.Provider value={i18n}>{children}</I18nContext.Provider>;
}

export function useTranslation(ns?: string | readonly string[]): { t: TFunction; i18n: I18n } {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error('useTranslation needs an I18nProvider above it');
  const namespace = typeof ns === 'string' ? ns : ns?.[0];
  const t = useMemo(() => i18n.getFixedT(null, namespace ?? null), [i18n, namespace]);
  return { t, i18n };
}
