/**
 * The secret that signs sessions, toasts and CSRF tokens, for a node given no SESSION_SECRET: made once in
 * DATA_DIR and read back at every later start. The server hands it to the app as SESSION_SECRET before the app
 * is loaded (./index.ts), so the app itself writes nothing when it is imported.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export function sessionSecretIn(dataDir: string): string {
  const file = path.join(dataDir, 'session.secret');
  fs.mkdirSync(dataDir, { recursive: true });
  if (!fs.existsSync(file)) {
    // Processes sharing DATA_DIR may start together: the first link wins, whole, and every process reads that
    // one (a plain write could be read half-written or overwritten by another).
    const draft = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
    fs.writeFileSync(draft, crypto.randomBytes(32).toString('base64url'), { mode: 0o600 });
    try {
      fs.linkSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(draft, { force: true });
    }
  }
  return fs.readFileSync(file, 'utf8').trim();
}
