/**
 * The pages a visitor shares with every other visitor (utils/shared-pages.server.ts): the market list, the most
 * visited page. A market that closes may show open on it for at most a second.
 */
export const SHARED_PATHS: readonly string[] = ['/'];
