/**
 * The typed upstream client: one function for every call of contract/. It sends `lang` and
 * `authorization`, adds `t` to GET calls, posts form bodies, applies a timeout, and reads the answer
 * through the contract's schemas. Business codes raise UpstreamError; transport failures raise
 * UpstreamUnavailable. Neither the token nor the upstream's address ever leaves the server.
 */
import { request, type Dispatcher } from 'undici';
import { z } from 'zod/v4';
import type { CallDef } from '#contract/calls/define';
import { CLIENT_ORIGIN_HEADER } from '#contract/calls/passkeys';
import { USER_AGENT_HEADER } from '#contract/calls/security';
import { EnvelopeSchema, SUCCESS, TOKEN_INVALID } from '#contract/envelope';
import type { Language } from '#contract/enums';

export const UPSTREAM_TIMEOUT_MS = 8000;

export interface UpstreamTarget {
  /** Base URL of the upstream, e.g. http://127.0.0.1:4000 (server-side only). */
  baseUrl: string;
  /**
   * Told of every call's duration and outcome (`ok`, `code` for a business error, or the failure's reason):
   * the web server's metrics, handed over in the load context so the app needs no metrics library.
   */
  observe?: (call: string, outcome: 'ok' | 'code' | UpstreamUnavailable['reason'], seconds: number) => void;
}

interface CallOptions {
  lang: Language;
  token?: string | null;
  /** The user's address, passed on so the upstream's rate limits count people, not this server. */
  clientIp?: string;
  /** The browser's user agent, passed on so the upstream can word a signed-in device (issue 38). */
  userAgent?: string | null;
  /** The page's origin: a passkey belongs to its host (issue 38). */
  pageOrigin?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** The upstream answered with a code other than success. */
export class UpstreamError extends Error {
  constructor(
    readonly code: number,
    readonly msg: string,
    readonly call: string,
  ) {
    super(`${call}: upstream code ${code}: ${msg}`);
  }
  get sessionExpired(): boolean {
    return this.code === TOKEN_INVALID;
  }
}

/** The upstream could not be reached, timed out, or answered something that is not our envelope. */
export class UpstreamUnavailable extends Error {
  constructor(
    readonly reason: 'timeout' | 'network' | 'malformed' | 'http',
    readonly call: string,
    detail: string,
    /** The HTTP status of an `http` failure. */
    readonly status?: number,
  ) {
    super(`${call}: ${reason}: ${detail}`);
  }
  /** HTTP 404: this upstream does not offer the call at all (a broker's backend without our own calls). */
  get notOffered(): boolean {
    return this.reason === 'http' && this.status === 404;
  }
}

export interface CallResult<C extends CallDef> {
  data: z.output<C['response']>;
  extras: C['extras'] extends z.ZodRawShape ? z.output<z.ZodObject<C['extras']>> : Record<string, never>;
}

export async function callUpstream<C extends CallDef>(
  target: UpstreamTarget,
  call: C,
  input: z.input<C['request']>,
  options: CallOptions,
): Promise<CallResult<C>> {
  const url = new URL(call.path, target.baseUrl);
  const params = toParams(input as Record<string, unknown>);
  let body: string | undefined;
  const headers = baseHeaders(options);
  if (call.method === 'GET') {
    for (const [k, v] of params) url.searchParams.append(k, v);
    url.searchParams.set('t', String(Date.now()));
  } else {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(params).toString();
  }
  return send(target, call, url, { method: call.method, headers, body }, options);
}

/**
 * A multipart call (the image upload): one file under `field`, streamed on to the upstream with the
 * same headers, timeout and answer checks as every other call.
 */
export async function uploadToUpstream<C extends CallDef>(
  target: UpstreamTarget,
  call: C,
  file: { field: string; blob: Blob; filename: string },
  options: CallOptions,
): Promise<CallResult<C>> {
  const form = new FormData();
  form.append(file.field, file.blob, file.filename);
  return send(target, call, new URL(call.path, target.baseUrl), { method: 'POST', headers: baseHeaders(options), body: form }, options);
}

function baseHeaders(options: CallOptions): Record<string, string> {
  // Identity: undici's request (below) does not decode a compressed body as fetch did, and a request without
  // Accept-Encoding allows any coding. A user agent, as fetch sent one (a firewall may refuse requests without).
  const headers: Record<string, string> = {
    lang: options.lang,
    accept: 'application/json',
    'accept-encoding': 'identity',
    'user-agent': 'lotfx-web',
  };
  if (options.token) headers.authorization = options.token;
  if (options.clientIp) headers['x-forwarded-for'] = options.clientIp;
  const userAgent = passedUserAgent(options.userAgent);
  if (userAgent) headers[USER_AGENT_HEADER] = userAgent;
  if (options.pageOrigin) headers[CLIENT_ORIGIN_HEADER] = options.pageOrigin;
  return headers;
}

/** Longest user agent passed on: real ones stay well under it, and the upstream keeps one per session. */
export const MAX_USER_AGENT = 256;

/** The browser's user agent as it goes upstream: printable ASCII only (a header value cannot carry the rest), trimmed. */
export function passedUserAgent(userAgent: string | null | undefined): string {
  return (userAgent ?? '')
    .replace(/[^\x20-\x7e]+/g, ' ')
    .trim()
    .slice(0, MAX_USER_AGENT)
    .trim();
}

async function send<C extends CallDef>(
  target: UpstreamTarget,
  call: C,
  url: URL,
  init: Outgoing,
  options: CallOptions,
): Promise<CallResult<C>> {
  if (!target.observe) return exchange(call, url, init, options);
  const started = performance.now();
  const done = (outcome: Parameters<NonNullable<UpstreamTarget['observe']>>[1]) =>
    target.observe!(call.name, outcome, (performance.now() - started) / 1000);
  try {
    const result = await exchange(call, url, init, options);
    done('ok');
    return result;
  } catch (error) {
    done(error instanceof UpstreamUnavailable ? error.reason : error instanceof UpstreamError ? 'code' : 'network');
    throw error;
  }
}

async function exchange<C extends CallDef>(call: C, url: URL, init: Outgoing, options: CallOptions): Promise<CallResult<C>> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? UPSTREAM_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let json: unknown;
  try {
    const response = await answerOf(url, init, signal);
    if (response.status < 200 || response.status > 299) {
      await response.discard();
      throw new UpstreamUnavailable('http', call.name, `HTTP ${response.status}`, response.status);
    }
    try {
      json = await response.json();
    } catch (err) {
      if (signal.aborted) throw err;
      throw new UpstreamUnavailable('malformed', call.name, 'not JSON');
    }
  } catch (err) {
    if (err instanceof UpstreamUnavailable) throw err;
    if (timeout.aborted)
      throw new UpstreamUnavailable('timeout', call.name, `no answer within ${options.timeoutMs ?? UPSTREAM_TIMEOUT_MS} ms`);
    throw new UpstreamUnavailable('network', call.name, String((err as Error)?.cause ?? err));
  }
  const envelope = EnvelopeSchema.safeParse(json);
  if (!envelope.success) throw new UpstreamUnavailable('malformed', call.name, 'not an envelope');
  const { code, msg, data, ...rest } = envelope.data;
  if (code !== SUCCESS) throw new UpstreamError(code, msg, call.name);
  const parsed = call.response.safeParse(data);
  if (!parsed.success) throw new UpstreamUnavailable('malformed', call.name, parsed.error.issues[0]?.message ?? 'bad data');
  let extras = {} as CallResult<C>['extras'];
  if (call.extras) {
    const e = extrasSchema(call.extras).safeParse(rest);
    if (!e.success) throw new UpstreamUnavailable('malformed', call.name, 'bad envelope extras');
    extras = e.data as CallResult<C>['extras'];
  }
  return { data: parsed.data as CallResult<C>['data'], extras };
}

type Outgoing = { method: string; headers: Record<string, string>; body?: string | FormData };

/**
 * One HTTP exchange. Plain calls go through undici's `request`, which costs a fraction of `fetch`'s CPU
 * (no WHATWG Request, Response and streams per call: fetch was about 7 % of an order's CPU on the web);
 * a multipart upload keeps `fetch`, which encodes FormData. A plain call's redirect is not followed: it is an
 * answer that is not ours (`http`), where fetch would have sent an order's POST on as a GET.
 */
async function answerOf(url: URL, init: Outgoing, signal: AbortSignal) {
  if (init.body instanceof FormData) {
    const response = await fetch(url, { ...init, body: init.body, signal });
    return { status: response.status, json: () => response.json(), discard: async () => void (await response.body?.cancel()) };
  }
  const { statusCode, body } = await request(url, {
    method: init.method as Dispatcher.HttpMethod,
    headers: init.headers,
    body: init.body,
    signal,
  });
  return { status: statusCode, json: () => body.json(), discard: () => body.dump() };
}

/** The envelope's extra fields of a call, as one schema made once per call definition. */
const extrasSchemas = new WeakMap<z.ZodRawShape, z.ZodTypeAny>();
function extrasSchema(shape: z.ZodRawShape): z.ZodTypeAny {
  let schema = extrasSchemas.get(shape);
  if (!schema) extrasSchemas.set(shape, (schema = z.object(shape)));
  return schema;
}

function toParams(input: Record<string, unknown> | undefined): [string, string][] {
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(input ?? {})) {
    if (v === undefined || v === null) continue;
    out.push([k, String(v)]);
  }
  return out;
}
