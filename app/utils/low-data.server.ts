/**
 * The "Low data mode" switch (issue 12): a plain cookie, `__Host-low-data=1`, that the live stream's hub
 * reads from the `/stream` request as it reads `Save-Data: on` (contract/stream.ts). Not a Remix cookie:
 * those are base64 JSON, and the hub reads only the raw header.
 */
import { hasLowDataCookie, isSaveDataOn, LOW_DATA_COOKIE } from '#contract/stream';
import { THREE_YEARS_SECONDS } from './cookies.server';

/** The browser asks for less data: its data saver (`Save-Data: on`) is on. */
export function saveDataRequested(request: Request): boolean {
  return isSaveDataOn(request.headers.get('Save-Data'));
}

/** The switch is on for this browser. */
export function lowDataChosen(request: Request): boolean {
  return hasLowDataCookie(request.headers.get('Cookie'));
}

/** The Set-Cookie that turns the switch on (kept three years, like the other remembered choices) or off. */
export function lowDataCookieHeader(on: boolean): string {
  // Not HttpOnly: the page reads it too, to leave out price flashes (live/price-flash.ts). It holds no secret.
  const attributes = 'Path=/; Secure; SameSite=Lax';
  return on ? `${LOW_DATA_COOKIE}=1; Max-Age=${THREE_YEARS_SECONDS}; ${attributes}` : `${LOW_DATA_COOKIE}=; Max-Age=0; ${attributes}`;
}
