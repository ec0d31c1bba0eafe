import { defineConfig, devices } from '@playwright/test';
import path from 'node:path';
import { buildDirectory } from './server/build-directory';
import { CHROMIUM, CHROMIUM_FLAGS } from './tests/chromium';
import { appPort, myAppPort, WORKERS } from './tests/e2e/ports';

/**
 * Browser tests drive Debian's Chromium against the built app and the real upstream, at a phone
 * viewport, once with JavaScript and once without.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/global-setup.ts',
  // A spec file's tests run in order in one worker; the files are shared among the workers, each with its own app.
  fullyParallel: false,
  workers: WORKERS,
  retries: 0,
  reporter: [['list']],
  timeout: 30_000,
  use: {
    // This file is read again in each worker: there, this worker's app.
    baseURL: `http://localhost:${myAppPort()}`,
    ...devices['Pixel 5'],
    launchOptions: {
      executablePath: CHROMIUM,
      args: CHROMIUM_FLAGS,
    },
  },
  projects: [
    { name: 'js-on', use: { javaScriptEnabled: true } },
    // What only JavaScript can do lives in *.js-only.spec.ts.
    { name: 'js-off', use: { javaScriptEnabled: false }, testIgnore: /\.js-only\.spec\.ts$/ },
  ],
  webServer: Array.from({ length: WORKERS }, (_, worker) => ({
    command: `node tests/e2e/serve.mjs`,
    url: `http://localhost:${appPort(worker)}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(appPort(worker)),
      SERVER_ENTRY: path.join(buildDirectory(process.env.BUILD_DIR), 'server-bin', 'index.js'),
    },
  })),
});
