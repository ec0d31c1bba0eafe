/**
 * "One-tap trading" (user centre, off by default): a cookie of this device, like MT5's one-click trading
 * of one terminal (docs/decisions/0014-one-tap-trading.md). On, "Buy up" and "Buy low" place the order at
 * once; off, the ticket asks to confirm first.
 */
import { THREE_YEARS_SECONDS } from './cookies.server';

const ONE_TAP_COOKIE = '__Host-one-tap';

/** The switch is on for this browser (`__Host-one-tap=1`). */
export function oneTapChosen(request: Request): boolean {
  const header = request.headers.get('Cookie');
  if (!header) return false;
  return header.split(';').some((part) => {
    const eq = part.indexOf('=');
    return eq > 0 && part.slice(0, eq).trim() === ONE_TAP_COOKIE && part.slice(eq + 1).trim() === '1';
  });
}

/** The Set-Cookie that turns the switch on (kept three years, like the other remembered choices) or off. */
export function oneTapCookieHeader(on: boolean): string {
  const attributes = 'Path=/; HttpOnly; Secure; SameSite=Lax';
  return on ? `${ONE_TAP_COOKIE}=1; Max-Age=${THREE_YEARS_SECONDS}; ${attributes}` : `${ONE_TAP_COOKIE}=; Max-Age=0; ${attributes}`;
}
