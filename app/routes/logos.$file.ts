/**
 * Instrument logos, fetched from the upstream on the server so the browser never learns its address:
 * `<code>.svg` as the upstream has it (news pictures), `<code>.png` drawn from it for the lists (instrument-logo.ts).
 */
import type { LoaderFunctionArgs } from '@remix-run/node';
import { rasterLogo } from '~/utils/raster-logo.server';

const FILE = /^([a-z0-9]{2,16})\.(svg|png)$/;

const HEADERS = {
  'cache-control': 'public, max-age=86400, stale-while-revalidate=604800',
  'x-content-type-options': 'nosniff',
};

async function upstreamSvg(file: string, baseUrl: string): Promise<string> {
  const upstream = await fetch(new URL(`/static/logos/${file}`, baseUrl), { signal: AbortSignal.timeout(5000) }).catch((error: unknown) => {
    // An outage, not a missing logo: said as such, and not cached as a 404 would be.
    console.warn(`[upstream] logo ${file} not fetched: ${error instanceof Error ? error.message : String(error)}`);
    throw new Response('Logo unavailable', { status: 503, headers: { 'cache-control': 'no-store' } });
  });
  if (!upstream.ok) throw new Response('Not found', { status: 404 });
  return upstream.text();
}

export async function loader({ params, context }: LoaderFunctionArgs) {
  const match = FILE.exec(params.file ?? '');
  if (!match) throw new Response('Not found', { status: 404 });
  const [, name, type] = match as unknown as [string, string, 'svg' | 'png'];
  const baseUrl = context.upstream.baseUrl;
  if (type === 'svg')
    return new Response(await upstreamSvg(`${name}.svg`, baseUrl), {
      headers: { ...HEADERS, 'content-type': 'image/svg+xml', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'" },
    });
  const png = await rasterLogo(`${baseUrl}|${name}`, () => upstreamSvg(`${name}.svg`, baseUrl)).catch((error: unknown) => {
    if (error instanceof Response) throw error;
    console.warn(`[logos] ${name}.svg not drawn: ${error instanceof Error ? error.message : String(error)}`);
    throw new Response('Logo unavailable', { status: 503, headers: { 'cache-control': 'no-store' } });
  });
  return new Response(new Uint8Array(png), { headers: { ...HEADERS, 'content-type': 'image/png' } });
}
