import path from 'node:path';

/**
 * Where the app is built. `build/` by default; a BUILD_DIR (parallel test runs) maps to `.builds/<name>`
 * inside the project, because the server build imports its dependencies from the project's node_modules.
 */
export function buildDirectory(setting: string | undefined): string {
  if (!setting || setting === 'build') return 'build';
  return path.join('.builds', path.basename(setting));
}
