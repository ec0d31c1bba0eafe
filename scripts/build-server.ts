/**
 * `npm run build`, after `remix vite:build`: bundles the server and the upstream's entries with esbuild into
 * `<build>/server-bin/`, so production runs `node` on JavaScript (no tsx, no TypeScript at run time).
 * Packages stay external: they load from node_modules, and only `dependencies` are needed there.
 */
import { build } from 'esbuild';
import path from 'node:path';
import { buildDirectory } from '../server/build-directory';

const outdir = path.join(buildDirectory(process.env.BUILD_DIR), 'server-bin');

await build({
  entryPoints: {
    // The web server (cluster primary, workers, or one process).
    index: 'server/index.ts',
    // The embedded upstream's own process, forked by index.js from beside it.
    'upstream-process': 'server/upstream-process.ts',
    // `npm run upstream` and `npm run admin`, for a machine without the dev tools.
    upstream: 'upstream/main.ts',
    admin: 'upstream/admin.ts',
  },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
console.log(`server bundled into ${outdir}`);
