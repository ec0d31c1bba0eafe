/** The web app's settings from the environment, parsed once with zod; a bad value stops the start and names it. */
import path from 'node:path';
import { z } from 'zod';

const AppEnvSchema = z.object({
  DATA_DIR: z.string().default('data'),
  /** Signs sessions, toasts and CSRF tokens; generated and kept in DATA_DIR when unset. */
  SESSION_SECRET: z.string().min(32, 'at least 32 characters').optional(),
});

function readAppEnv(env: NodeJS.ProcessEnv) {
  const parsed = AppEnvSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Bad configuration — ${problems}`);
  }
  return parsed.data;
}

const env = readAppEnv(process.env);
export const DATA_DIR = path.resolve(env.DATA_DIR);
export const SESSION_SECRET = env.SESSION_SECRET ?? '';
