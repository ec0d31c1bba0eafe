/** /user (spec §2): login required; the user page is the user centre, so a signed-in user goes to /mine. */
import type { LoaderFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { requireSignedIn } from '~/utils/session.server';

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  return redirect('/mine');
}
