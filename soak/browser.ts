/**
 * A browser without JavaScript, as the soak's traders use the web app: a cookie jar, GET a page, read its form's
 * hidden fields (CSRF token, idempotency key), POST the form and read the redirect it answers with. Every request
 * is timed and noted in the run's record; one may be abandoned mid-flight (the trader closes the tab).
 */
import { Agent, fetch, FormData, type RequestInit, type Response } from 'undici';
import type { Recorder, RequestKind } from './record';

export interface Answer {
  status: number;
  location: string;
  text: string;
}

/** An answer that never came in full (network error, timeout, or abandoned on purpose). */
export class NoAnswer extends Error {}

const TIMEOUT_MS = 15_000;

export class Browser {
  private readonly cookies = new Map<string, string>();
  /** Connections from the trader's own address. */
  private readonly dispatcher: Agent;

  constructor(
    readonly base: string,
    /**
     * The trader's own loopback address (127.x.y.z): the web, or nginx in front of it, sees each trader as its own
     * phone, so per-address limits are per trader.
     */
    address: string,
    private readonly record: Recorder,
  ) {
    this.dispatcher = new Agent({ localAddress: address });
  }

  private headers(): Record<string, string> {
    return {
      cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'accept-language': 'en',
      origin: this.base,
    };
  }

  private keep(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (!value || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  signedIn(): boolean {
    return this.cookies.has('__Host-sid');
  }

  get(path: string): Promise<Answer> {
    return this.send('page', path, { method: 'GET' });
  }

  /** Posts a form (urlencoded, or multipart when given FormData); `abandonAfterMs` drops the request then. */
  post(path: string, form: Record<string, string> | FormData, kind: RequestKind = 'order', abandonAfterMs?: number): Promise<Answer> {
    const body = form instanceof FormData ? form : new URLSearchParams(form);
    return this.send(kind, path, { method: 'POST', body }, abandonAfterMs);
  }

  private async send(kind: RequestKind, path: string, init: RequestInit, abandonAfterMs?: number): Promise<Answer> {
    const started = Date.now();
    const signal =
      abandonAfterMs === undefined ? AbortSignal.timeout(TIMEOUT_MS) : AbortSignal.timeout(Math.max(1, Math.round(abandonAfterMs)));
    try {
      const res = await fetch(new URL(path, this.base), {
        ...init,
        headers: this.headers(),
        redirect: 'manual',
        signal,
        dispatcher: this.dispatcher,
      });
      this.keep(res);
      const text = await res.text();
      const answer = { status: res.status, location: res.headers.get('location') ?? '', text };
      // A 5xx is a failed request; a 4xx is the app answering (a refusal shown on the form).
      this.record.request({ kind, path, started, ended: Date.now(), failed: res.status >= 500, detail: String(res.status) });
      return answer;
    } catch (error) {
      const abandoned = abandonAfterMs !== undefined;
      this.record.request({ kind, path, started, ended: Date.now(), failed: !abandoned, abandoned, detail: String(error) });
      throw new NoAnswer(`${init.method} ${path}: ${abandoned ? 'abandoned' : String(error)}`);
    }
  }
}

/**
 * A hidden field's value in a page, e.g. `csrf` or `idempotency_key` (the first one), as a string of its own: V8 makes
 * a match of 13 characters or more a slice that keeps the whole page alive, and the run keeps every order's key (a
 * full-scale soak's process grew by 150 MB a minute, to 4 GB and out of memory in the 34th minute).
 */
export function field(html: string, name: string): string | null {
  const m = new RegExp(`name="${name}"[^>]*?value="([^"]*)"`).exec(html) ?? new RegExp(`value="([^"]*)"[^>]*?name="${name}"`).exec(html);
  return m ? Buffer.from(m[1]!.replaceAll('&amp;', '&')).toString() : null;
}
