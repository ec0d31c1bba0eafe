/** All settings come from the environment, parsed once at start; a bad value stops the start. */
import { z } from 'zod';

const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** Unset: start the bundled upstream in-process. `auto`: api.<domain> of the page host. Else a URL. */
  UPSTREAM_URL: z
    .union([z.literal('auto'), z.string().url()])
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
  DATA_DIR: z.string().default('data'),
  /** `on`: desktop browsers on a real domain go to the pc.<domain> site (spec §1). */
  DESKTOP_SITE: z.enum(['on', 'off']).default('off'),
  /** Where `remix vite:build` put the app (BUILD_DIR at build time too). */
  BUILD_DIR: z.string().default('build'),
});

export type Config = z.infer<typeof ConfigSchema>;

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Bad configuration — ${problems}`);
  }
  return parsed.data;
}

/** `UPSTREAM_URL=auto`: the page host with its first label replaced by `api` (spec §7). */
export function upstreamForHost(host: string, protocol: string): string {
  const name = host.split(':')[0] ?? host;
  const labels = name.split('.');
  if (labels.length < 2) return `${protocol}//${name}`;
  labels[0] = 'api';
  return `${protocol}//${labels.join('.')}`;
}
