// Starts the built app with its embedded upstream on a fresh data folder, with the test hooks on
// (admin price injection) and a push service on this machine allowed (the tests play it), for the browser tests.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-data-'));
// Keyed by port, so parallel runs on one machine each find their own upstream.
fs.writeFileSync(path.join(os.tmpdir(), `e2e-data-dir-${process.env.PORT}`), dataDir);
// The compiled server, as production runs it (SERVER_ENTRY: playwright.config.ts, from the build folder).
const child = spawn(process.execPath, ['--enable-source-maps', process.env.SERVER_ENTRY ?? 'build/server-bin/index.js'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    UPSTREAM_TEST_HOOKS: '1',
    // Every market open unless a test closes it: the tests must pass on a weekend too (forex closes Friday 22:00 UTC).
    UPSTREAM_MARKET_HOURS: 'always',
    WITHDRAW_METHOD_HOLD: '2', // seconds a new withdrawal method is held (issue 38): the tests watch it end
    HOST: '127.0.0.1',
    PUSH_SERVICE_HOSTS: '127.0.0.1',
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
