/**
 * What the run saw, kept in memory for the minute's checks and the closing table: every request (when it started and
 * ended, failed or not), every order attempt with its idempotency key and outcome, every fault's window.
 */
export type RequestKind = 'page' | 'order' | 'money' | 'alert' | 'login' | 'step';

export interface RequestSample {
  kind: RequestKind;
  started: number;
  ended: number;
  failed: boolean;
  abandoned?: boolean;
  /** The status or error, kept only for failed requests (the report names a few). */
  detail?: string;
  path?: string;
}

/**
 * An order action a trader sent under one idempotency key: `acked` (the web redirected with its number), `refused`
 * (the form came back with a reason: nothing was made), `unknown` (no answer, a 503 "outcome unknown", or abandoned).
 * A later send with the same key replaces an unknown outcome with what that send was told.
 */
export interface Attempt {
  key: string;
  action: 'place' | 'partial-close';
  outcome: 'acked' | 'refused' | 'unknown';
  /** The order it was told of: the placed order, or the closed part's row. */
  id?: number;
  /** A partial close's position. */
  position?: number;
  /** How many times this key was sent (posted twice, retried after a lost answer). */
  sends: number;
  /** Every id the sends under this key were told (they must all be the same). */
  told: number[];
  /** What each send was told, in order (an answer after an ack must be the same ack). */
  history: Attempt['outcome'][];
  /** A placed order whose answer was lost, once a retry resolved it: whether /order then showed it to the trader. */
  shown?: boolean;
}

export interface FaultWindow {
  kind: string;
  start: number;
  /** When the system was back (feed up, workers all there), or NaN while it is not. */
  recovered: number;
  /** What happened on the way back (e.g. when the upstream listened again). */
  detail?: string;
}

export class Recorder {
  readonly requests: RequestSample[] = [];
  readonly attempts = new Map<string, Attempt>();
  readonly faults: FaultWindow[] = [];

  request(sample: RequestSample & { path: string; detail: string }) {
    const { path, detail, ...rest } = sample;
    this.requests.push(rest.failed ? { ...rest, path, detail } : rest);
  }

  /** Notes one send of `key` and what it was told. */
  attempt(key: string, action: Attempt['action'], outcome: Attempt['outcome'], id?: number, position?: number) {
    const known = this.attempts.get(key);
    const told = id === undefined ? (known?.told ?? []) : [...(known?.told ?? []), id];
    const sends = (known?.sends ?? 0) + 1;
    const history = [...(known?.history ?? []), outcome];
    // An answer settles the key; a lost one leaves what an earlier send was told.
    const settled = known && (outcome === 'unknown' || known.outcome === 'acked') ? known.outcome : outcome;
    this.attempts.set(key, {
      key,
      action,
      outcome: settled,
      id: id ?? known?.id,
      position: position ?? known?.position,
      sends,
      told,
      history,
      shown: known?.shown,
    });
  }

  /** Notes whether the orders screen showed the order a retry of `key` resolved to. */
  shownAfterRetry(key: string, shown: boolean) {
    const known = this.attempts.get(key);
    if (known) known.shown = shown;
  }
}
