/** The web app's settings from the environment, parsed once with zod; a bad value stops the start and names it. */
import path from 'node:path';
import { z } from 'zod';
import { parseEnv } from '#contract/env';

const AppEnvSchema = z
  .object({
    DATA_DIR: z.string().default('data'),
    /** Signs sessions, toasts and CSRF tokens; generated and kept in DATA_DIR when unset (one node only). */
    SESSION_SECRET: z.string().min(32, 'at least 32 characters').optional(),
    /** Sessions in Redis instead of DATA_DIR, so that several web nodes share them. */
    REDIS_URL: z
      .string()
      .url()
      .refine((url) => /^rediss?:\/\//.test(url), 'a redis:// or rediss:// URL')
      .optional(),
  })
  // Nodes that share sessions must sign with one secret, and a secret generated in one node's DATA_DIR is
  // not shared: the operator gives it (docs/decisions/0010-shared-sessions-redis.md).
  .refine((env) => !env.REDIS_URL || env.SESSION_SECRET, {
    path: ['SESSION_SECRET'],
    message: 'required with REDIS_URL (every web node must sign with the same secret)',
  });

export function readAppEnv(source: Readonly<Record<string, string | undefined>> = process.env) {
  return parseEnv(AppEnvSchema, source);
}

const env = readAppEnv();
export const DATA_DIR = path.resolve(env.DATA_DIR);
export const SESSION_SECRET = env.SESSION_SECRET ?? '';
export const REDIS_URL = env.REDIS_URL ?? null;
