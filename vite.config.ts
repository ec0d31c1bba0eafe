import { vitePlugin as remix } from '@remix-run/dev';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { buildDirectory } from './server/build-directory';

declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true;
  }
}

const alias = {
  '~': path.resolve(__dirname, 'app'),
  '#contract': path.resolve(__dirname, 'contract'),
};

const SHELL_MODULES =
  /\/app\/live\/(events|resync|store|hooks|stale-notice|price-flash)|preload-helper|node_modules\/i18next\/|\/app\/i18n\/(?!.*\.server|language-names)|\/app\/utils\/(format|locale|nonce|number-symbols|page-title|demo-blocked|instrument-logo|when-idle)\.tsx?$|\/app\/components\/(page-header|language-flag|hydrate-later)|node_modules\/remix-utils\/build\/react\/authenticity-token/;

// What the ticket and the orders page both load besides the shell (money, stops, the account's figures): one
// file instead of four. Over HTTP/1.1 each file is a request and a share of a slow link that the shell, the
// largest, waits behind: Lighthouse's simulated LCP of /trade fell from about 2.25 to 2.0-2.2 s with this and
// the shell's preload at the head (root.tsx). /alerts and /mine/withdraw load 1-1.5 KB more for it.
const TRADING_MODULES =
  /\/app\/(components|utils)\/stop-money|\/contract\/(arithmetic|money)\.ts|\/app\/live\/state|\/app\/components\/(account-figures|carry-fields)/;

export default defineConfig({
  resolve: { alias },
  server: { hmr: { port: 24679 } },
  // Phones on slow networks: every KiB of first-load JS counts, and terser packs tighter than esbuild.
  build: {
    // Class fields as written, not through a helper (53 bytes of `/`'s first load): Chrome 80, Safari 14.1 (decision 0051).
    target: 'es2022',
    // SOURCEMAP=1 npm run build: maps to see which module the first-load bytes come from.
    sourcemap: !!process.env.SOURCEMAP,
    // NOMINIFY=1 npm run build: readable function names in a CPU profile of the browser (never for budgets).
    minify: process.env.NOMINIFY ? false : 'terser',
    terserOptions: { ecma: 2020, module: true, toplevel: true, compress: { passes: 3 }, format: { comments: false } },
    // A lazy chunk's list of modules to preload leaves out the shell: every page has loaded it already.
    modulePreload: { resolveDependencies: (_file, deps) => deps.filter((dep) => !/(^|\/)shell-[\w-]+\.js$/.test(dep)) },
    rollupOptions: {
      // The date modules only declare things (their object spreads read to Rollup as possible side effects). The
      // root imports them for the server's HTML alone (root.tsx's localeData): without this, once they are a
      // chunk of their own, every page would load it for those "side effects".
      treeshake: { moduleSideEffects: (id) => !/\/app\/utils\/(date-symbols|format-date)\.ts$|\/contract\/time\.ts$/.test(id) },
      output: {
        // The small modules every page's root loads go in one "shell" chunk instead of a dozen files of a
        // few hundred bytes: each file is compressed on its own and costs a request on a slow network
        // (first-load JS of / fell from 108.3 to 105.7 KiB gz, /trade from 141.4 to 138.4). i18next, the live
        // store, the number formats and Vite's preload helper joined it later (dates stay out: format-date): / 106.4 → 105.1 in
        // four files instead of eight (the store's code costs /login 1 KiB; it connects only where prices are live).
        // contract/enums left it: no code of / uses it, and it cost / 254 B (its pages now take it with their own).
        manualChunks(id) {
          if (SHELL_MODULES.test(id)) return 'shell';
          if (TRADING_MODULES.test(id)) return 'trading';
        },
      },
    },
  },
  plugins: [
    !process.env.VITEST &&
      remix({
        // Parallel test runs on one machine build into their own folders (inside the project, so the
        // server build still finds node_modules).
        buildDirectory: buildDirectory(process.env.BUILD_DIR),
        future: {
          v3_fetcherPersist: true,
          v3_relativeSplatPath: true,
          v3_throwAbortReason: true,
          v3_lazyRouteDiscovery: true,
          v3_singleFetch: true,
          v3_routeConfig: true,
        },
      }),
  ],
  test: {
    include: ['{app,contract,server,upstream,locales,bench,soak}/**/*.test.{ts,tsx}'],
    environment: 'node',
    // What the web server hands the app (server/index.ts makes it in DATA_DIR when none is given).
    env: { SESSION_SECRET: 'the tests sign with this secret, 32+ characters' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
