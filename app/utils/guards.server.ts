/**
 * Route gating of spec §2 and §6 beyond "login required" (that is `requireSignedIn`): the pages a demo
 * account may not open — deposit, withdraw, wallet, auth, invite and password.
 */
import { data } from '@remix-run/node';
import { DEMO_BLOCKED } from '~/utils/demo-blocked';
import { requireSignedIn, type SignedIn } from './session.server';

/**
 * A visitor goes to /login?from=<this path>; a demo account gets a 403 that the route's
 * `DemoBlockedBoundary` shows as "Please register or log in to a real account".
 */
export async function requireRealAccount(request: Request): Promise<SignedIn> {
  const signedIn = await requireSignedIn(request);
  if (signedIn.user.isDemo) throw data(DEMO_BLOCKED, { status: 403 });
  return signedIn;
}
