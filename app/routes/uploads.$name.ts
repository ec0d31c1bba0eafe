/** GET /uploads/<name>: an uploaded image, read back through the web server with the owner's session. */
import type { LoaderFunctionArgs } from '@remix-run/node';
import { IMAGE_READ_PREFIX } from '#contract/calls/identity';
import { upstreamApi } from '~/upstream/api.server';
import { requireSignedIn } from '~/utils/session.server';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  const api = await upstreamApi(request, context);
  const image = await api.image(`${IMAGE_READ_PREFIX}${params.name ?? ''}`);
  if (!image?.body) throw new Response('Not found', { status: 404 });
  return new Response(image.body, {
    headers: { 'content-type': 'image/jpeg', 'cache-control': 'private, max-age=3600', 'x-content-type-options': 'nosniff' },
  });
}
