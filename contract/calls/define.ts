import type { z } from 'zod/v4';

export type HttpMethod = 'GET' | 'POST';
/** How the request travels: a query string (GET), a form-encoded body, or multipart. */
export type BodyKind = 'query' | 'form' | 'multipart';
/** none: public; required: a valid token or code 999; optional: public, richer with a token. */
export type AuthKind = 'none' | 'required' | 'optional';

export interface CallDef<
  Req extends z.ZodTypeAny = z.ZodTypeAny,
  Res extends z.ZodTypeAny = z.ZodTypeAny,
  Extra extends z.ZodRawShape = z.ZodRawShape,
  A extends AuthKind = AuthKind,
> {
  name: string;
  method: HttpMethod;
  path: string;
  body: BodyKind;
  auth: A;
  request: Req;
  response: Res;
  /** Fields that travel beside `data` in the envelope (my_deal's total, all_fact_profits, balance). */
  extras?: Extra;
}

export function defineCall<
  Req extends z.ZodTypeAny,
  Res extends z.ZodTypeAny,
  const A extends AuthKind,
  Extra extends z.ZodRawShape = Record<never, never>,
>(def: Omit<CallDef<Req, Res, Extra, A>, 'body'> & { body?: BodyKind }): CallDef<Req, Res, Extra, A> {
  return { ...def, body: def.body ?? (def.method === 'GET' ? 'query' : 'form') };
}
