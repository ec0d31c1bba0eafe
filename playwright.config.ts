import { defineConfig, devices } from '@playwright/test';
import path from 'node:path';
import { buildDirectory } from './server/build-directory';
import { CHROMIUM, CHROMIUM_FLAGS } from './tests/chromium';

const PORT = Number(process.env.E2E_PORT ?? 3210);

/**
 * Browser tests drive Debian's Chromium against the built app and the real upstream, at a phone
 * viewport, once with JavaScript and once without.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  timeout: 30_000,
  use: {
    baseURL: `http://localhost:${PORT}`,
    ...devices['Pixel 5'],
    launchOptions: {
      executablePath: CHROMIUM,
      args: CHROMIUM_FLAGS,
    },
  },
  projects: [
    { name: 'js-on', use: { javaScriptEnabled: true } },
    // What only JavaScript can do lives in *.js-only.spec.ts.
    // Tests tagged @http check what the server answers to plain requests, which JavaScript cannot change: js-on runs them.
    { name: 'js-off', use: { javaScriptEnabled: false }, testIgnore: /\.js-only\.spec\.ts$/, grepInvert: /@http/ },
  ],
  webServer: {
    command: `node tests/e2e/serve.mjs`,
    url: `http://localhost:${PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: { PORT: String(PORT), SERVER_ENTRY: path.join(buildDirectory(process.env.BUILD_DIR), 'server-bin', 'index.js') },
  },
});
