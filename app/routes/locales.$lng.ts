/** One language's strings for the browser, under a versioned URL so caches never disagree with the server. */
import type { LoaderFunctionArgs } from '@remix-run/node';
import { LANGUAGES, type Language } from '#contract/languages';
import { resources, resourcesVersion } from '~/i18n/resources.server';

export async function loader({ params, request }: LoaderFunctionArgs) {
  const lng = (params.lng ?? '').replace(/\.json$/, '');
  if (!(LANGUAGES as readonly string[]).includes(lng)) throw new Response('Not found', { status: 404 });
  const versioned = new URL(request.url).searchParams.get('v') === resourcesVersion;
  return new Response(JSON.stringify(withEnglishFallback(resources[lng as Language], resources.en)), {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': versioned ? 'public, max-age=31536000, immutable' : 'no-cache',
    },
  });
}

type Strings = { [key: string]: string | Strings };

/** The language's strings over English ones, as the server falls back to English for a missing key. */
function withEnglishFallback(own: Strings, english: Strings): Strings {
  const out: Strings = { ...english };
  for (const [k, v] of Object.entries(own)) {
    const base = english[k];
    out[k] = typeof v === 'object' && typeof base === 'object' ? withEnglishFallback(v, base) : v;
  }
  return out;
}
