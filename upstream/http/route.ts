/**
 * One generic route per contract call: language, token, request validation against the contract's zod
 * schema, the envelope, and business errors as `{code, msg}` — never an HTTP error for a business case.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { CallDef } from '../../contract/calls/define';
import { ok, TOKEN_INVALID } from '../../contract/envelope';
import { ERROR_MESSAGES, ErrorCode } from '../../contract/errors';
import type { Language } from '../../contract/enums';
import type { UserRow } from '../accounts/accounts';
import { BusinessError } from '../shared/errors';
import { requestLanguage, translate } from './i18n';
import type { Upstream } from '../upstream';

export interface CallContext<I> {
  input: I;
  user: UserRow | null;
  token: string | undefined;
  lang: Language;
  ip: string;
  /** The raw request, for what a schema cannot carry (a multipart file). */
  request: FastifyRequest;
}

export type Handler<C extends CallDef, Authed extends boolean> = (
  ctx: CallContext<z.output<C['request']>> & { user: Authed extends true ? UserRow : UserRow | null },
) => MaybePromise<z.input<C['response']> | { data: z.input<C['response']>; extras: Record<string, unknown> }>;

type MaybePromise<T> = T | Promise<T>;

export function bearer(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (!h) return undefined;
  const token = h.startsWith('Bearer ') ? h.slice(7) : h;
  return token.trim() || undefined;
}

export function errorMessage(lang: Language, err: BusinessError): string {
  const key = `errors.${err.errorName}`;
  const text = translate(lang, key);
  return text === key ? ERROR_MESSAGES[err.errorName] : text;
}

export function register<C extends CallDef>(
  app: FastifyInstance,
  up: Upstream,
  call: C,
  handler: Handler<C, C['auth'] extends 'required' ? true : false>,
): void {
  app.route({
    method: call.method,
    url: call.path,
    handler: async (req) => {
      const lang = requestLanguage(req.headers.lang);
      try {
        const token = bearer(req);
        const user = call.auth === 'none' ? null : up.accounts.authenticate(token);
        if (call.auth === 'required' && !user) return { code: TOKEN_INVALID, msg: translate(lang, 'errors.TokenInvalid'), data: null };
        const raw = call.method === 'GET' || call.body === 'multipart' ? req.query : (req.body ?? {});
        const parsed = call.request.safeParse(raw);
        if (!parsed.success) {
          const fields = [...new Set(parsed.error.issues.map((i) => i.path.join('.')).filter(Boolean))];
          throw new BusinessError('InvalidRequest', fields.join(', '));
        }
        const result = await handler({ input: parsed.data, user: user as UserRow, token, lang, ip: req.ip, request: req });
        const body = isWrapped(result) ? ok(result.data, result.extras) : ok(result ?? null);
        if (up.options.validateResponses) call.response.parse(body.data);
        return body;
      } catch (err) {
        if (err instanceof BusinessError) {
          const msg = errorMessage(lang, err);
          return { code: err.code, msg: err.errorName === 'InvalidRequest' && err.detail ? `${msg} (${err.detail})` : msg, data: null };
        }
        req.log.error({ err, call: call.name }, 'call failed');
        return { code: ErrorCode.ServerBusy, msg: translate(lang, 'errors.ServerBusy'), data: null };
      }
    },
  });
}

function isWrapped(x: unknown): x is { data: unknown; extras: Record<string, unknown> } {
  return typeof x === 'object' && x !== null && 'extras' in x && 'data' in x;
}
