/**
 * kill -9 during a burst of orders (issue 41: 100 times in the hour, a few in the smoke). An upstream of its own (its
 * own database and port), so that a hundred kills test the group commit's promise without taking the traders' upstream
 * away a hundred times: 32 clients post orders at once under fresh keys, the process is killed mid-burst, and then
 * every acknowledged order is in the database under its key as the number it was told, every key sent once more after
 * the restart resolves to exactly one order (the acknowledged ones to theirs), and the ledger invariants hold.
 */
import { ledgerViolations, type KeyedRow } from './checks';
import { readLedger } from './database';
import type { Upstream } from './processes';

const CLIENTS = 32;
const ACCOUNTS = 8;

export interface BurstRound {
  /** key → the order number its answer named, for every key answered before the kill. */
  acknowledged: ReadonlyMap<string, number>;
  /** Every key sent before the kill. */
  sent: readonly string[];
  /** key → the order number the retry after the restart was told (undefined: not acknowledged). */
  retried: ReadonlyMap<string, number | undefined>;
}

/**
 * An acknowledged order is in the database once under its key, as the number it was told, before any retry (`before`)
 * and after; after the retries every key sent is one order, and a retry of an acknowledged key names its order.
 */
export function burstViolations(
  round: BurstRound,
  before: ReadonlyMap<string, readonly KeyedRow[]>,
  after: ReadonlyMap<string, readonly KeyedRow[]>,
): string[] {
  const out: string[] = [];
  for (const [key, id] of round.acknowledged) {
    const rows = before.get(key) ?? [];
    if (rows.length !== 1 || rows[0]!.id !== id)
      out.push(`${key}: acknowledged as order ${id}, but after the kill its key is on ${rows.map((r) => r.id).join(', ') || 'no order'}`);
  }
  for (const key of round.sent) {
    const rows = after.get(key) ?? [];
    const told = round.retried.get(key);
    if (told === undefined) out.push(`${key}: the retry after the restart was not acknowledged`);
    else if (rows.length !== 1 || rows[0]!.id !== told)
      out.push(`${key}: the retry was told order ${told}, but its key is on ${rows.map((r) => r.id).join(', ') || 'no order'}`);
    const acked = round.acknowledged.get(key);
    if (acked !== undefined && told !== undefined && told !== acked)
      out.push(`${key}: acknowledged as order ${acked}, the retry was told ${told}`);
  }
  return out;
}

async function submit(base: string, token: string, key: string): Promise<number | undefined> {
  const res = await fetch(`${base}/v1/api/forex/submit`, {
    method: 'POST',
    headers: { authorization: token, lang: 'en', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ type: '1', cont: '0.01', forex_id: '1', status: '1', multiple: '100', idempotency_key: key }),
    signal: AbortSignal.timeout(15_000),
  });
  const body = (await res.json()) as { code: number; data: { Id: number } | null };
  return body.code === 1 ? body.data!.Id : undefined;
}

export class BurstKills {
  rounds = 0;
  acknowledged = 0;
  /** Keys whose answer the kill took, resolved by the retry. */
  lost = 0;
  readonly violations: string[] = [];

  constructor(private readonly upstream: Upstream) {}

  /** One round: fresh demo accounts, a burst, kill -9 after `killAfterAcks` answers, the checks, a restart and the retries. */
  async round(killAfterAcks: number): Promise<void> {
    const n = this.rounds++;
    const base = this.upstream.url;
    // Fresh accounts each round: their margin never runs out, however many rounds.
    const tokens = await Promise.all(
      Array.from({ length: ACCOUNTS }, async (_, i) => {
        const res = await fetch(`${base}/api/user/createAccountDemoForU?demo_id=${crypto.randomUUID()}`, {
          headers: { 'x-forwarded-for': `10.43.${n % 250}.${i + 1}` },
        });
        return ((await res.json()) as { data: { token: string } }).data.token;
      }),
    );
    const acknowledged = new Map<string, number>();
    const sent: { key: string; token: string }[] = [];
    let killed = false;
    const clients = Array.from({ length: CLIENTS }, async (_, c) => {
      const token = tokens[c % ACCOUNTS]!;
      for (let k = 0; !killed; k++) {
        const key = `burst-${n}-${c}-${k}`;
        sent.push({ key, token });
        const id = await submit(base, token, key).catch(() => null);
        if (id === null) return; // the process is gone: this answer is lost
        if (id !== undefined) acknowledged.set(key, id);
      }
    });
    for (const deadline = Date.now() + 10_000; acknowledged.size < killAfterAcks && Date.now() < deadline;)
      await new Promise((r) => setTimeout(r, 2));
    killed = true;
    await this.upstream.service?.stop('SIGKILL');
    await Promise.all(clients);
    const before = readLedger(this.upstream.dataDir).rowsByKey;
    await this.upstream.start();
    const retried = new Map<string, number | undefined>();
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        for (let i = c; i < sent.length; i += CLIENTS)
          retried.set(sent[i]!.key, await submit(base, sent[i]!.token, sent[i]!.key).catch(() => undefined));
      }),
    );
    const after = readLedger(this.upstream.dataDir);
    const round: BurstRound = { acknowledged, sent: sent.map((s) => s.key), retried };
    this.violations.push(...burstViolations(round, before, after.rowsByKey), ...ledgerViolations(after.accounts));
    this.acknowledged += acknowledged.size;
    this.lost += sent.length - acknowledged.size;
  }
}
