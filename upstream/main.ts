/** `npm run upstream`: the reference upstream alone on UPSTREAM_PORT (default 4000). */
import { z } from 'zod';
import { start } from './index';

const env = z
  .object({
    UPSTREAM_PORT: z.coerce.number().int().min(0).max(65535).default(4000),
    UPSTREAM_HOST: z.string().default('127.0.0.1'),
  })
  .safeParse(process.env);
if (!env.success) {
  console.error(`Bad configuration: ${env.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  process.exit(1);
}

const running = await start({ port: env.data.UPSTREAM_PORT, host: env.data.UPSTREAM_HOST });
console.log(`Upstream listening on ${running.url} (websocket ${running.url.replace('http', 'ws')}/v1/ws)`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void running.close().then(() => process.exit(0));
  });
}
