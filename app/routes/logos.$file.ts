/** Instrument logos, fetched from the upstream on the server so the browser never learns its address. */
import type { LoaderFunctionArgs } from '@remix-run/node';

const FILE = /^[a-z0-9]{2,16}\.svg$/;

export async function loader({ params, context }: LoaderFunctionArgs) {
  const file = params.file ?? '';
  if (!FILE.test(file)) throw new Response('Not found', { status: 404 });
  const upstream = await fetch(new URL(`/static/logos/${file}`, context.upstream.baseUrl), { signal: AbortSignal.timeout(5000) }).catch(
    (error: unknown) => {
      // An outage, not a missing logo: said as such, and not cached as a 404 would be.
      console.warn(`[upstream] logo ${file} not fetched: ${error instanceof Error ? error.message : String(error)}`);
      throw new Response('Logo unavailable', { status: 503, headers: { 'cache-control': 'no-store' } });
    },
  );
  if (!upstream.ok) throw new Response('Not found', { status: 404 });
  return new Response(await upstream.text(), {
    headers: {
      'content-type': 'image/svg+xml',
      'cache-control': 'public, max-age=86400, stale-while-revalidate=604800',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    },
  });
}
