import { createContext } from 'react';

/** Why buy and sell cannot be pressed right now. */
export type OrderBlock = 'closed' | 'noLeverage' | 'connecting' | 'stale' | null;

/**
 * Why buy and sell are off now, given around the ticket rather than as its prop: it changes twice as a page
 * starts (hydrated: waiting for prices; then the feed is up), and as a prop each change drew the whole ticket
 * again, conform's fields and all (about 28 ms each on a weak phone; issue 12). Only the notice and the
 * buttons read it. Apart from the ticket, whose code comes after the page (route.tsx).
 */
export const OrderBlockContext = createContext<OrderBlock>(null);
