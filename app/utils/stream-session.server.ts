/**
 * For the server's `/stream`: who is this request? The session store lives in the app, so the server asks
 * the app through the build's entry module instead of reading sessions itself.
 */
import { getSignedIn } from './session.server';

export async function streamSession(request: Request): Promise<{ userId: number; token: string } | null> {
  const signedIn = await getSignedIn(request);
  return signedIn ? { userId: signedIn.user.id, token: signedIn.token } : null;
}
