import { RemixBrowser } from '@remix-run/react';
import i18next from 'i18next';
import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { NAMESPACES } from './i18n/config';

async function hydrate() {
  // The server rendered the page in this language; load its strings (preloaded by the document) first.
  const root = document.documentElement;
  const lng = root.dataset.lng ?? 'hk';
  const url = `/locales/${lng}.json?v=${root.dataset.i18nVersion ?? ''}`;
  const strings = (await fetch(url, { credentials: 'same-origin' }).then((r) => r.json())) as Record<string, object>;
  await i18next.use(initReactI18next).init({
    lng,
    fallbackLng: false,
    ns: [...NAMESPACES],
    defaultNS: 'common',
    resources: { [lng]: strings },
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

void hydrate();
