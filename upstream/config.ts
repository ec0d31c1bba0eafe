/** The upstream's settings from the environment, parsed once; a bad value stops the start and names the setting. */
import { z } from 'zod/v4';
import { parseEnv } from '../contract/env';

const UpstreamConfigSchema = z.object({
  DATA_DIR: z.string().default('data'),
  /** `npm run upstream`: where it listens. */
  UPSTREAM_PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  UPSTREAM_HOST: z.string().default('127.0.0.1'),
  /** The market simulator's seed: the same seed gives the same prices. */
  UPSTREAM_SEED: z.coerce.number().int().safe().default(20260101),
  /** `1`: the admin API may set prices (browser tests and demos only). */
  UPSTREAM_TEST_HOOKS: z.enum(['0', '1']).default('0'),
  /**
   * `always`: every market trades around the clock unless the admin API closes it, for the browser tests and the
   * benches, which must not depend on the day they run (forex closes from Friday 22:00 to Sunday 22:00 UTC).
   */
  UPSTREAM_MARKET_HOURS: z.enum(['real', 'always']).default('real'),
  /** Verification codes are also e-mailed through this server when set. */
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('LotFX <no-reply@localhost>'),
  /** Web Push: the push services a phone may name, comma-separated (`*.` for subdomains); unset: the browsers' own. */
  PUSH_SERVICE_HOSTS: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((h) => h.trim())
        .filter(Boolean),
    )
    .optional(),
  /** Web Push: the contact the push services see, a mailto: or https: URL. */
  PUSH_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:)/)
    .default('mailto:no-reply@localhost'),
  /** Seconds a newly bound withdrawal method waits before a withdrawal may use it (issue 38; the browser tests set a few). */
  WITHDRAW_METHOD_HOLD: z.coerce.number().int().min(0).default(86_400),
  /** The admin command's upstream (else the address the running upstream wrote in DATA_DIR). */
  UPSTREAM_URL: z.union([z.literal('auto'), z.string().url()]).optional(),
});

export type UpstreamConfig = z.infer<typeof UpstreamConfigSchema>;

export function readUpstreamConfig(env: Readonly<Record<string, string | undefined>> = process.env): UpstreamConfig {
  return parseEnv(UpstreamConfigSchema, env);
}
