import type { WarmMarketState } from '#contract/stream';
import type { UpstreamTarget } from './upstream/client.server';

declare module '@remix-run/node' {
  interface AppLoadContext {
    /** Where this request's upstream lives (server-side only; never sent to the browser). */
    upstream: UpstreamTarget;
    /** The user's address (for the upstream's rate limits). */
    clientIp?: string;
    /** Tells the live stream that this user logged out (it sends `logout` upstream and ends their feed). */
    onLogout?: (userId: number) => void;
    /** The live relay's quotes for this request's upstream, when it has a relay (app/upstream/warm-market.server.ts decides if they are fresh). */
    market?: () => WarmMarketState;
    /**
     * Set when an upstream call of this request found the upstream unreachable or silent: the request's
     * later calls (a POST's loaders after its action) fail at once instead of each waiting a whole timeout.
     */
    upstreamOutage?: boolean;
  }
}

export {};
