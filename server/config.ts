/** All settings come from the environment, parsed once at start; a bad value stops the start. */
import os from 'node:os';
import net from 'node:net';
import { z } from 'zod/v4';
import { parseEnv } from '../contract/env';

const ConfigSchema = z
  .object({
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
    /** Web processes sharing PORT (node:cluster); 1 runs a single process. Development always runs one. */
    WEB_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(os.availableParallelism()),
    /** Set: `/metrics` also answers `Authorization: Bearer <token>` from anywhere (else loopback only). */
    METRICS_TOKEN: z.string().min(16).optional(),
    /**
     * Who may name the user's address, scheme and host (X-Forwarded-For/Proto/Host): express's `trust proxy`,
     * as `loopback` (a proxy on this host), `linklocal`, `uniquelocal`, addresses or subnets, comma-separated.
     * Never everyone: a trusted header from anyone would let a client choose the address the upstream's
     * per-address limits count.
     */
    TRUST_PROXY: z
      .string()
      .default('loopback')
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      )
      .refine((list) => list.length > 0 && list.every(isProxyAddress), {
        message: 'loopback, linklocal, uniquelocal, or IP addresses and subnets (10.0.0.0/8), comma-separated',
      }),
    /**
     * `on` (`npm start` sets it): also serve HTTPS on HTTPS_PORT with a self-signed certificate made in DATA_DIR, so a
     * phone on this network can sign in (the app's cookies are Secure). Not for production (decision 0043).
     */
    LAN_HTTPS: z.enum(['on', 'off']).default('off'),
    /** The LAN_HTTPS port; PORT + 443 when unset. */
    HTTPS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    /** Where `remix vite:build` put the app (BUILD_DIR at build time too). */
    BUILD_DIR: z.string().default('build'),
    /**
     * With UPSTREAM_URL=auto: the page hosts this server answers for, comma-separated (`m.broker.com,m.broker.net`).
     * Another Host would make the server carry users' tokens to an api.<domain> of the sender's choosing.
     */
    ALLOWED_HOSTS: z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((h) => h.trim().toLowerCase())
          .filter(Boolean),
      )
      .optional(),
  })
  .refine((c) => c.UPSTREAM_URL !== 'auto' || (c.ALLOWED_HOSTS?.length ?? 0) > 0, {
    path: ['ALLOWED_HOSTS'],
    message: 'required with UPSTREAM_URL=auto (the page hosts whose api.<domain> may be called)',
  });

export type Config = z.infer<typeof ConfigSchema>;

function isProxyAddress(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
}

export function readConfig(env: Readonly<Record<string, string | undefined>> = process.env): Config {
  return parseEnv(ConfigSchema, env);
}

/**
 * `UPSTREAM_URL=auto`: the page host with its first label replaced by `api` (spec §7), for a host on the
 * allowlist only; null for any other.
 */
export function upstreamForHost(host: string, protocol: string, allowed: readonly string[]): string | null {
  const name = (host.split(':')[0] ?? host).toLowerCase();
  if (!allowed.includes(name)) return null;
  const labels = name.split('.');
  if (labels.length < 2) return `${protocol}//${name}`;
  labels[0] = 'api';
  return `${protocol}//${labels.join('.')}`;
}
