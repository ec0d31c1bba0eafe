/** The web app's settings from the environment, parsed once with zod; a bad value stops the start and names it. */
import path from 'node:path';
import { z } from 'zod';
import { parseEnv } from '#contract/env';

const AppEnvSchema = z.object({
  DATA_DIR: z.string().default('data'),
  /** Signs sessions, toasts and CSRF tokens; generated and kept in DATA_DIR when unset. */
  SESSION_SECRET: z.string().min(32, 'at least 32 characters').optional(),
});

const env = parseEnv(AppEnvSchema, process.env);
export const DATA_DIR = path.resolve(env.DATA_DIR);
export const SESSION_SECRET = env.SESSION_SECRET ?? '';
