/**
 * The first-load JS budgets (sizes are deterministic, so this is a test, not a benchmark). Runs against
 * the production build when one exists (npm test builds before the browser tests; the CI script builds
 * first), and says so when there is none.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { BUDGETS_KIB, firstLoadGzip, readManifest } from './bundle';

const client = path.resolve('build/client');
const built = fs.existsSync(path.join(client, 'assets'));

test.runIf(built)('first-load JS of each budgeted route stays within its budget', () => {
  const manifest = readManifest(client);
  for (const [routeId, budget] of Object.entries(BUDGETS_KIB)) {
    if (!manifest.routes[routeId]) continue;
    expect(firstLoadGzip(client, routeId) / 1024, routeId).toBeLessThanOrEqual(budget);
  }
});
