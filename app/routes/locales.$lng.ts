/** One language's strings for the browser, under a versioned URL so caches never disagree with the server. */
import type { LoaderFunctionArgs } from '@remix-run/node';
import { LANGUAGES, type Language } from '~/i18n/config';
import { resources, resourcesVersion } from '~/i18n/resources.server';

export async function loader({ params, request }: LoaderFunctionArgs) {
  const lng = (params.lng ?? '').replace(/\.json$/, '');
  if (!(LANGUAGES as readonly string[]).includes(lng)) throw new Response('Not found', { status: 404 });
  const versioned = new URL(request.url).searchParams.get('v') === resourcesVersion;
  return new Response(JSON.stringify(resources[lng as Language]), {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': versioned ? 'public, max-age=31536000, immutable' : 'no-cache',
    },
  });
}
