/**
 * One generic route per contract call: language, token, request validation against the contract's zod
 * schema, the envelope, and business errors as `{code, msg}` — never an HTTP error for a business case.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod/v4';
import type { CallDef } from '../../contract/calls/define';
import { ok, TOKEN_INVALID } from '../../contract/envelope';
import { ERROR_MESSAGES, ErrorCode } from '../../contract/errors';
import type { Language } from '../../contract/enums';
import type { Device, UserRow } from '../accounts/accounts';
import { USER_AGENT_HEADER, type StepUpAction } from '../../contract/calls/security';
import { BusinessError } from '../shared/errors';
import { requestLanguage, translate } from './i18n';
import type { Upstream } from '../upstream';

export interface CallContext<I> {
  input: I;
  user: UserRow | null;
  token: string | undefined;
  lang: Language;
  ip: string;
  /** The browser behind the call, as the web server names it (user agent header and X-Forwarded-For). */
  device: Device;
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
        const userAgent = req.headers[USER_AGENT_HEADER];
        const device = { userAgent: typeof userAgent === 'string' ? userAgent : '', ip: req.ip };
        const result = await handler({
          input: parsed.data as z.output<C['request']>,
          user: user as UserRow,
          token,
          lang,
          ip: req.ip,
          device,
          request: req,
        });
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

/**
 * A call that needs a step-up grant (issue 38): its `grant` field is checked and spent by Security.withGrant, the one
 * gate, before and in the same transaction as the handler; there is no other way to register these calls.
 */
export function registerProtected<C extends CallDef & { auth: 'required' }>(
  app: FastifyInstance,
  up: Upstream,
  call: C,
  action: StepUpAction,
  /** Synchronous: it runs inside the grant's transaction. */
  handler: (ctx: CallContext<z.output<C['request']>> & { user: UserRow }) => z.input<C['response']>,
  options: {
    /** The action's own checks whose tries must count even when it fails (amend_password's code). */
    before?: (ctx: CallContext<z.output<C['request']>> & { user: UserRow }) => void;
    /** Answers without a grant when nothing new would happen (a withdrawal's repeated idempotency key). */
    replay?: (ctx: CallContext<z.output<C['request']>> & { user: UserRow }) => z.input<C['response']> | undefined;
  } = {},
): void {
  register(app, up, call, (ctx) => {
    const c = ctx as CallContext<z.output<C['request']>> & { user: UserRow };
    const replayed = options.replay?.(c);
    if (replayed !== undefined) return replayed;
    const grant = (c.input as { grant?: string }).grant;
    return up.security.withGrant(
      c.user,
      c.token!,
      action,
      grant,
      () => handler(c),
      () => options.before?.(c),
    );
  });
}
