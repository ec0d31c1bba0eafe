/** The web app's settings from the environment, parsed once with zod; a bad value stops the start and names it. */
import path from 'node:path';
import { z } from 'zod/v4';
import { parseEnv } from '#contract/env';

const AppEnvSchema = z.object({
  DATA_DIR: z.string().default('data'),
  /**
   * Signs sessions, toasts and CSRF tokens. The web server sets it before loading the app when it is not given
   * (a secret of its own in DATA_DIR, one node only: server/session-secret.ts).
   */
  SESSION_SECRET: z
    .string({ error: 'required: given, or made by the web server in DATA_DIR on a single node (not with REDIS_URL)' })
    .min(32, 'at least 32 characters'),
  /** Sessions in Redis instead of DATA_DIR, so that several web nodes share them. */
  REDIS_URL: z
    .string()
    .url()
    .refine((url) => /^rediss?:\/\//.test(url), 'a redis:// or rediss:// URL')
    .optional(),
});

export function readAppEnv(source: Readonly<Record<string, string | undefined>> = process.env) {
  return parseEnv(AppEnvSchema, source);
}

const env = readAppEnv();
export const DATA_DIR = path.resolve(env.DATA_DIR);
export const SESSION_SECRET = env.SESSION_SECRET;
export const REDIS_URL = env.REDIS_URL ?? null;
