/**
 * i18next for React, as much as this app uses: the page's instance in a context and `useTranslation(ns)`
 * giving its `t` for a namespace (the first, when given several: react-i18next's default). A change of
 * language reloads the document (routes/language), so nothing here listens for one, loads namespaces or
 * suspends; react-i18next did all that in 1.5 KiB gz of every page's first-load JS (issue 12).
 */
import type { i18n as I18n, TFunction } from 'i18next';
import { createContext, useContext, type ReactNode } from 'react';

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ i18n, children }: { i18n: I18n; children: ReactNode }) {
  return <I18nContext.Provider value={i18n}>{children}</I18nContext.Provider>;
}

const fixedTs = new WeakMap<I18n, Map<string | undefined, TFunction>>();

/**
 * One `t` per instance and namespace, shared by every component. A key asked without options gives the same
 * text every time (the language and its strings never change under a page), so it is looked up once: i18next's
 * lookup and interpolation pass cost about a third of a millisecond a call on a phone, and a list of orders
 * asks the same labels for every row while it hydrates.
 */
function fixedT(i18n: I18n, namespace: string | undefined): TFunction {
  let byNamespace = fixedTs.get(i18n);
  if (!byNamespace) fixedTs.set(i18n, (byNamespace = new Map()));
  let t = byNamespace.get(namespace);
  if (!t) {
    const fixed = i18n.getFixedT(null, namespace ?? null) as unknown as (...args: unknown[]) => string;
    const texts = new Map<string, string>();
    t = ((key: unknown, ...rest: unknown[]) => {
      if (rest.length || typeof key !== 'string') return fixed(key, ...rest);
      let text = texts.get(key);
      if (text === undefined) {
        text = fixed(key);
        // Bounded: an upstream's message passed through t (form errors) is a key of its own, and the server's
        // instances live as long as the process.
        if (texts.size < 1000) texts.set(key, text);
      }
      return text;
    }) as unknown as TFunction;
    byNamespace.set(namespace, t);
  }
  return t;
}

export function useTranslation(ns?: string | readonly string[]): { t: TFunction; i18n: I18n } {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error('useTranslation needs an I18nProvider above it');
  return { t: fixedT(i18n, typeof ns === 'string' ? ns : ns?.[0]), i18n };
}
