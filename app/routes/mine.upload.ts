/**
 * POST /mine/upload: one image from the JavaScript upload field, forwarded to the upstream; answers
 * JSON `{ref, preview}` or `{error}` in the user's language (Responses of their own: Remix warned on every call
 * that React Router 7 will not make them from plain data). (Without JavaScript the image travels with its form
 * instead.)
 */
import type { ActionFunctionArgs } from '@remix-run/node';
import { translator } from '~/i18n/i18next.server';
import { failureMessage, upstreamApi, UpstreamError, UpstreamUnavailable } from '~/upstream/api.server';
import { uploadImage, uploadPreviewPath } from '~/upstream/funds.server';
import { readUploadForm } from '~/utils/form-action.server';
import { requireRealAccount } from '~/utils/guards.server';

export async function loader() {
  throw new Response('Not found', { status: 404 });
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireRealAccount(request);
  const { file, tooLarge } = await readUploadForm(request, 'file');
  const { t } = await translator(request, 'common');
  if (tooLarge) return Response.json({ error: t('upload.tooLarge') }, { status: 413 });
  if (!file) return Response.json({ error: t('upload.required') }, { status: 400 });
  const api = await upstreamApi(request, context);
  try {
    const ref = await uploadImage(api, file, file.name);
    return Response.json({ ref, preview: uploadPreviewPath(ref) });
  } catch (error) {
    if (error instanceof UpstreamError || error instanceof UpstreamUnavailable)
      return Response.json({ error: await failureMessage(request, error) }, { status: 400 });
    throw error;
  }
}
