/** Settings from the environment, parsed once with a zod schema; a bad value stops the start and names the setting. */
import type { z } from 'zod/v4';

export function parseEnv<S extends z.ZodTypeAny>(schema: S, env: Readonly<Record<string, string | undefined>>): z.output<S> {
  // An empty variable counts as unset, so its default applies.
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Bad configuration — ${problems}`);
  }
  return parsed.data;
}
