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

export default defineConfig({
  resolve: { alias },
  server: { hmr: { port: 24679 } },
  // Phones on slow networks: every KiB of first-load JS counts, and terser packs tighter than esbuild.
  build: { target: 'es2020', minify: 'terser', terserOptions: { compress: { passes: 2 } } },
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
    include: ['{app,contract,server,upstream,locales,bench}/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
