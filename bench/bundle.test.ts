/**
 * The first-load JS budgets (sizes are deterministic, so this is a test, not a benchmark). Runs against
 * the production build (npm test builds before the unit tests): without one it fails rather than pass
 * having checked nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { BUDGETS_KIB, firstLoadGzip, readManifest } from './bundle';

const client = path.resolve('build/client');

test('first-load JS of each budgeted route stays within its budget', () => {
  expect(fs.existsSync(path.join(client, 'assets')), 'no build in build/client: run `npm run build` first').toBe(true);
  const manifest = readManifest(client);
  for (const [routeId, budget] of Object.entries(BUDGETS_KIB)) {
    expect(manifest.routes[routeId], `${routeId} is budgeted but not in the build`).toBeDefined();
    expect(firstLoadGzip(client, routeId) / 1024, routeId).toBeLessThanOrEqual(budget);
  }
});
