/**
 * Where the order's confirmation is drawn. The server renders it in place (a page without JavaScript needs it
 * whole); the browser loads its code only when a trader has one-tap trading off, after the page is up, so it
 * is not part of /trade's first-load script. The Suspense boundary is on both sides, so a page that arrives
 * with the confirmation open keeps the server's dialog until its code is there.
 */
import { lazy, Suspense, useEffect, type ComponentProps } from 'react';
import { OrderConfirm as ServerConfirm } from './order-confirm';

const load = () => import('./order-confirm');
const BrowserConfirm = /* @__PURE__ */ lazy(() => load().then((m) => ({ default: m.OrderConfirm })));

type Props = ComponentProps<typeof ServerConfirm>;

export function OrderConfirmSlot(props: Props) {
  return <Suspense fallback={null}>{import.meta.env.SSR ? <ServerConfirm {...props} /> : <BrowserConfirm {...props} />}</Suspense>;
}

/** Fetches the confirmation's code once the page is up, so that a tap on "Buy up" opens it at once. */
export function usePreloadConfirm(needed: boolean) {
  useEffect(() => {
    if (needed) void load();
  }, [needed]);
}
