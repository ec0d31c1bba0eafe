import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { sessionSecretIn } from './session-secret';

test('the secret is made once in DATA_DIR, readable by its owner only, and read back by the next start', () => {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'session-secret-')), 'data');
  try {
    const secret = sessionSecretIn(dir);
    expect(secret.length).toBeGreaterThanOrEqual(32);
    const file = path.join(dir, 'session.secret');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(sessionSecretIn(dir)).toBe(secret);
    expect(fs.readdirSync(dir)).toEqual(['session.secret']);
  } finally {
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  }
});
