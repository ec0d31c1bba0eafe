import { RemixBrowser } from '@remix-run/react';
import i18next from 'i18next';
import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { I18nProvider } from './i18n/react';

const RETRY_MS = [500, 1500, 3000, 6000];

/**
 * The page's strings (preloaded by the document). A failed fetch is tried again, ever more slowly up to the
 * last interval and then at that pace, and at once when the network comes back: the server-rendered page
 * works meanwhile, and hydration waits for the right words rather than showing keys.
 */
async function fetchStrings(url: string): Promise<Record<string, object>> {
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch(url, { credentials: 'same-origin' });
      if (res.ok) return (await res.json()) as Record<string, object>;
    } catch {
      // offline or refused: try again below
    }
    await new Promise<void>((resolve) => {
      setTimeout(resolve, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]);
      window.addEventListener('online', () => resolve(), { once: true });
    });
  }
}

async function hydrate() {
  // The server rendered the page in this language; load its strings first.
  const root = document.documentElement;
  const lng = root.dataset.lng ?? 'hk';
  const strings = await fetchStrings(`/locales/${lng}.json?v=${root.dataset.i18nVersion ?? ''}`);
  await i18next.init({
    lng,
    fallbackLng: false,
    // The namespaces the strings came in (the server sends them all): the list stays out of the page's script.
    ns: Object.keys(strings),
    defaultNS: 'common',
    resources: { [lng]: strings },
    interpolation: { escapeValue: false },
  });
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nProvider>,
    );
  });
}

void hydrate();
