/**
 * The traders: accounts made through the back office's side door (real ones registered at the upstream with the
 * code from its outbox, then logged in on the web's login form; demo ones opened with the login page's button), and
 * each one's loop of what a person does on the web app without JavaScript: read a page, place market and pending
 * orders, change a position's stops, close part of it, close it, cancel a pending order, deposit, withdraw (binding
 * an address first, each through the step-up with a code from the outbox; approved or rejected by the back office),
 * set or delete a price alert. Every order post
 * carries the idempotency key its form was rendered with; some are posted twice, some abandoned mid-flight and sent
 * again later with the same key. What each send was told goes into the run's record; the checks compare it with
 * the upstream's database.
 */
import sharp from 'sharp';
import { FormData } from 'undici';
import { Browser, field, NoAnswer, type Answer } from './browser';
import type { Upstream } from './processes';
import type { Recorder } from './record';

export const PASSWORD = 'soak-secret-123';
const CODES = ['EURUSD', 'GBPUSD', 'USDJPY', 'XAUUSD'] as const;

interface Position {
  id: number;
  /** Empty for one the trader found on its orders screen (readBook): it is closed or cancelled, not changed. */
  code: string;
  /** Lots in thousandths; 0 when not known (found on the orders screen: the close form says how many). */
  lotsMilli: number;
  /** 1 buy, 2 sell. */
  side: string;
  pending: boolean;
}

export interface Trader {
  n: number;
  email: string | null;
  browser: Browser;
  record: Recorder;
  positions: Position[];
  /** Keys whose answer was lost and that the trader will send again. */
  retry: { key: string; path: string; form: Record<string, string> }[];
  /** A real account's bound withdrawal address (bound once, on its first withdrawal). */
  addressBound: boolean;
}

/** A TRC20 address of the right form (the browser tests' own). */
const TRC20_ADDRESS = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function upstreamCall(upstream: Upstream, path: string, body: Record<string, unknown>) {
  const res = await fetch(new URL(path, upstream.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', lang: 'en' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  return (await res.json()) as { code: number; msg: string };
}

/** A real account at the upstream: the e-mail code from the outbox, then register (the public sign-up's limits are not in the way). */
async function registerReal(upstream: Upstream, email: string) {
  const sent = await upstreamCall(upstream, '/api/notify/send_email', { to: email, type: 1 });
  if (sent.code !== 1) throw new Error(`send_email ${email}: ${sent.msg}`);
  const { outbox } = (await upstream.admin('GET', `/admin/outbox?to=${encodeURIComponent(email)}`)) as { outbox: { body: string }[] };
  const code = outbox.map((m) => /\b(\d{6})\b/.exec(m.body)?.[1]).find(Boolean);
  if (!code) throw new Error(`no code for ${email}`);
  const registered = await upstreamCall(upstream, '/api/user/register', {
    type: 1,
    account: email,
    password: PASSWORD,
    re_password: PASSWORD,
    sms_code: code,
  });
  if (registered.code !== 1) throw new Error(`register ${email}: ${registered.msg}`);
}

let proof: Buffer | null = null;
async function proofImage(): Promise<Buffer> {
  proof ??= await sharp({ create: { width: 32, height: 32, channels: 3, background: '#88aacc' } })
    .png()
    .toBuffer();
  return proof;
}

export async function makeTrader(n: number, base: string, upstream: Upstream, record: Recorder, runId: string): Promise<Trader> {
  // Each trader from its own address, as phones are: per-address limits are per phone.
  const browser = new Browser(base, `127.${1 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`, record);
  const demo = n % 4 === 3;
  const login = await browser.get('/login');
  const csrf = field(login.text, 'csrf');
  if (!csrf) throw new Error(`trader ${n}: no CSRF token on /login (${login.status})`);
  let email: string | null = null;
  if (demo) {
    await browser.post('/demo', { csrf, from: '/' }, 'login');
  } else {
    email = `soak-${runId}-${n}@example.com`;
    await registerReal(upstream, email);
    await browser.post('/login', { csrf, account: email, password: PASSWORD, login_type: 'email', from: '/' }, 'login');
  }
  if (!browser.signedIn()) throw new Error(`trader ${n}: not signed in`);
  const trader: Trader = { n, email, browser, record, positions: [], retry: [], addressBound: false };
  // A real account starts empty: a first deposit, approved by the back office; and an address to withdraw to.
  if (email) {
    await deposit(trader, upstream, '5000', 'approve');
    await bindAddress(trader, upstream);
  }
  return trader;
}

/** A wire deposit through the deposit form (with its proof photo), then reviewed in the back office. */
export async function deposit(trader: Trader, upstream: Upstream, amount: string, review: 'approve' | 'reject') {
  if (!trader.email) return;
  const page = await trader.browser.get('/mine/charge?method=wire');
  const csrf = field(page.text, 'csrf');
  const channel = field(page.text, 'channel');
  const key = field(page.text, 'idempotency_key');
  if (!csrf || !channel || !key) throw new Error(`trader ${trader.n}: no deposit form (${page.status})`);
  const form = new FormData();
  for (const [k, v] of Object.entries({ csrf, method: 'wire', channel, amount, idempotency_key: key })) form.set(k, v);
  form.set('proof', new Blob([new Uint8Array(await proofImage())], { type: 'image/png' }), 'proof.png');
  const sent = await trader.browser.post('/mine/charge?method=wire', form, 'money');
  if (sent.status !== 302) throw new Error(`trader ${trader.n}: deposit answered ${sent.status}`);
  const { deposits } = (await upstream.admin('GET', `/admin/deposits?user=${encodeURIComponent(trader.email)}&pending=1`)) as {
    deposits: { id: number }[];
  };
  for (const d of deposits) await upstream.admin('POST', '/admin/deposit', { id: d.id, action: review, remark: 'soak' });
}

/** The newest six-digit code the outbox holds for `email` after `afterId`. */
async function newestCode(upstream: Upstream, email: string, afterId: number): Promise<{ id: number; code: string | null }> {
  const { outbox } = (await upstream.admin('GET', `/admin/outbox?to=${encodeURIComponent(email)}`)) as {
    outbox: { id: number; body: string }[];
  };
  const fresh = outbox.filter((m) => m.id > afterId);
  const code = fresh.map((m) => /\b(\d{6})\b/.exec(m.body)?.[1]).find(Boolean) ?? null;
  return { id: Math.max(afterId, ...outbox.map((m) => m.id)), code };
}

/**
 * A protected post answered with the step-up (a 302 to /step-up): a code sent to the e-mail, typed from the outbox,
 * then the kept form finished on its page — as a person without JavaScript walks it. Answers the finished post.
 */
async function throughStepUp(trader: Trader, upstream: Upstream, asked: Answer, what: string): Promise<Answer> {
  if (asked.status !== 302 || !asked.location.startsWith('/step-up?')) return asked;
  const stepUp = asked.location;
  const csrf = field((await trader.browser.get(stepUp)).text, 'csrf');
  if (!csrf) throw new Error(`trader ${trader.n}: no step-up form for ${what}`);
  const { id: seen } = await newestCode(upstream, trader.email!, 0);
  const sent = await trader.browser.post(stepUp, { csrf, intent: 'send' }, 'step');
  // A refusal (a code for this action asked again within a minute) is the app answering: tried on a later turn.
  if (sent.status === 400) return sent;
  if (sent.status !== 302) throw new Error(`trader ${trader.n}: step-up code for ${what} answered ${sent.status}: ${formError(sent.text)}`);
  const { code } = await newestCode(upstream, trader.email!, seen);
  if (!code) throw new Error(`trader ${trader.n}: no step-up code for ${what} in the outbox`);
  const confirmed = await trader.browser.post(stepUp, { csrf, intent: 'confirm', code }, 'step');
  const resume = new URL(confirmed.location || '/', trader.browser.base).searchParams.get('resume');
  if (confirmed.status !== 302 || !resume)
    throw new Error(`trader ${trader.n}: step-up for ${what} answered ${confirmed.status}: ${formError(confirmed.text)}`);
  const finishing = await trader.browser.get(confirmed.location);
  const again = field(finishing.text, 'csrf');
  if (!again) throw new Error(`trader ${trader.n}: no finishing form for ${what}`);
  return trader.browser.post(confirmed.location, { csrf: again, resume, finish: '1' }, 'money');
}

/** What a refused form says (its form-level error), for the run's record. */
const formError = (html: string) =>
  /class="form-error"[^>]*>(.*?)<\/div>/s
    .exec(html)?.[1]
    ?.replace(/<[^>]+>/g, ' ')
    .trim() ?? '(no message)';

/** The value of the radio whose label names `label` (the first one when none does). */
function radioValue(html: string, name: string, label: RegExp): string | null {
  const radios = [...html.matchAll(new RegExp(`<input[^>]*name="${name}"[^>]*value="([^"]*)"[^>]*>(.*?)</label>`, 'g'))];
  return (radios.find((r) => label.test(r[2]!)) ?? radios[0])?.[1] ?? null;
}

/** A TRC20 address bound as a withdrawal method, through its step-up; held a few seconds before it can be used. */
async function bindAddress(trader: Trader, upstream: Upstream) {
  const bindPath = '/mine/withdraw-way?type=1';
  const page = await trader.browser.get(bindPath);
  const csrf = field(page.text, 'csrf');
  const currency = radioValue(page.text, 'currency', /TRC20/);
  if (!csrf || !currency) throw new Error(`trader ${trader.n}: no bind form (${page.status})`);
  const asked = await trader.browser.post(bindPath, { csrf, type: '1', from: '/mine/withdraw', currency, address: TRC20_ADDRESS }, 'money');
  const bound = await throughStepUp(trader, upstream, asked, 'bind');
  if (bound.status !== 302) throw new Error(`trader ${trader.n}: binding answered ${bound.status}: ${formError(bound.text)}`);
  trader.addressBound = true;
}

/**
 * A withdrawal of 20 USD to the trader's TRC20 address through the web's form and its step-up (the address is bound
 * first if it is not yet); the back office approves or rejects it in turn. A refusal (the 24-hour volume rule, funds) is the app
 * answering, not a failure. The money checks then find its ledger rows like any other.
 */
export async function withdraw(trader: Trader, upstream: Upstream, review: 'approve' | 'reject') {
  if (!trader.email) return;
  if (!trader.addressBound) return bindAddress(trader, upstream);
  const withdrawPath = '/mine/withdraw?type=1';
  const page = await trader.browser.get(withdrawPath);
  const csrf = field(page.text, 'csrf');
  const key = field(page.text, 'idempotency_key');
  const currency = radioValue(page.text, 'currency', /TRC20/);
  const method = /<select[^>]*name="method"[^>]*>\s*<option[^>]*value="(\d+)"/.exec(page.text)?.[1];
  if (!csrf || !key || !currency || !method) throw new Error(`trader ${trader.n}: no withdrawal form (${page.status})`);
  const form = { csrf, type: '1', idempotency_key: key, currency, method, amount: '20', memo: 'soak', intent: 'withdraw' };
  const done = await throughStepUp(trader, upstream, await trader.browser.post(withdrawPath, form, 'money'), 'withdraw');
  if (done.status !== 302) return; // refused (volume rule, a method still held, a code asked too soon): the app's answer
  const { withdrawals } = (await upstream.admin('GET', `/admin/withdrawals?user=${encodeURIComponent(trader.email)}&pending=1`)) as {
    withdrawals: { id: number }[];
  };
  for (const w of withdrawals) await upstream.admin('POST', '/admin/withdrawal', { id: w.id, action: review, remark: 'soak' });
}

/** One market or pending order from the trade screen's ticket; sometimes posted twice, sometimes abandoned. */
async function place(trader: Trader, pending: boolean) {
  const code = pick(CODES);
  const path = `/trade?code=${code}`;
  const page = await trader.browser.get(path);
  const csrf = field(page.text, 'csrf');
  const key = field(page.text, 'idempotency_key');
  const forexId = field(page.text, 'forex_id');
  const price = field(page.text, 'seen_price');
  const leverage = /<option[^>]*value="(\d+)"[^>]*>1:/.exec(page.text)?.[1];
  if (!csrf || !key || !forexId || !price || !leverage) return;
  const side = Math.random() < 0.5 ? '1' : '2';
  const digits = price.split('.')[1]?.length ?? 0;
  // A pending order far from the market (it stays pending until cancelled): buy below, sell above.
  const target = (Number(price) * (side === '1' ? 0.8 : 1.2)).toFixed(digits);
  const form: Record<string, string> = {
    csrf,
    forex_id: forexId,
    code,
    idempotency_key: key,
    entry: pending ? '0' : '1',
    lots: '0.02',
    leverage,
    side,
    confirmed: '1',
    ...(pending ? { target_price: target } : { seen_price: price }),
  };
  const roll = Math.random();
  if (roll < 0.08) {
    // Abandoned mid-flight (the tab closed); half of them the trader sends again later, as the ticket kept the key.
    await sendOrder(trader, path, form, Math.random() * 40);
    if (Math.random() < 0.5) trader.retry.push({ key, path, form });
  } else if (roll < 0.18) {
    // Posted twice at once (a double tap): both must be told the same order.
    await Promise.all([sendOrder(trader, path, form), sendOrder(trader, path, form)]);
  } else {
    await sendOrder(trader, path, form);
  }
}

/** Posts an order form and notes what it was told; a lost answer is sent again later with the same key. */
async function sendOrder(trader: Trader, path: string, form: Record<string, string>, abandonAfterMs?: number) {
  const key = form.idempotency_key!;
  const record = trader.record;
  try {
    const answer = await trader.browser.post(path, form, 'order', abandonAfterMs);
    const placed = /[?&]placed=(\d+)/.exec(answer.location)?.[1];
    if (answer.status === 302 && placed) {
      const id = Number(placed);
      const lostBefore = record.attempts.get(key)?.history.includes('unknown') ?? false;
      record.attempt(key, 'place', 'acked', id);
      if (lostBefore && record.attempts.get(key)?.shown === undefined) await showsOrder(trader, key, id, form.entry === '0');
      if (!trader.positions.some((p) => p.id === id))
        trader.positions.push({ id, code: form.code!, lotsMilli: 20, side: form.side!, pending: form.entry === '0' });
    } else if (answer.status === 400) {
      record.attempt(key, 'place', 'refused');
    } else {
      // Sent to log in: the trader was signed out, which nothing in the soak asks for.
      if (answer.location.startsWith('/login')) signedOut(trader, path);
      record.attempt(key, 'place', 'unknown');
      if (abandonAfterMs === undefined && !trader.retry.some((r) => r.key === key)) trader.retry.push({ key, path, form });
    }
  } catch (error) {
    if (!(error instanceof NoAnswer)) throw error;
    record.attempt(key, 'place', 'unknown');
    if (abandonAfterMs === undefined && !trader.retry.some((r) => r.key === key)) trader.retry.push({ key, path, form });
  }
}

const MISSING = 'This order is no longer in this list.';

/** After a lost answer resolved by a retry: the orders screen shows that order (open or pending, else in the history). */
async function showsOrder(trader: Trader, key: string, id: number, pending: boolean) {
  try {
    for (const type of [pending ? 0 : 1, 3]) {
      const page = await trader.browser.get(`/order?type=${type}&detail=${id}`);
      if (page.status !== 200) return;
      if (!page.text.includes(MISSING)) return trader.record.shownAfterRetry(key, true);
    }
    trader.record.shownAfterRetry(key, false);
  } catch (error) {
    // No answer (a fault): not known either way.
    if (!(error instanceof NoAnswer)) throw error;
  }
}

function signedOut(trader: Trader, path: string) {
  const now = Date.now();
  trader.record.request({ kind: 'step', path, started: now, ended: now, failed: true, detail: `trader ${trader.n} was sent to log in` });
}

/** The orders screen's detail popup of one order: its forms' CSRF token and close key. */
async function orderPage(trader: Trader, position: Position) {
  const type = position.pending ? 0 : 1;
  const page = await trader.browser.get(`/order?type=${type}&detail=${position.id}`);
  return {
    csrf: field(page.text, 'csrf'),
    key: field(page.text, 'idempotency_key') ?? crypto.randomUUID(),
    type,
    heldLots: field(page.text, 'cont'),
  };
}

/** Closes all or part of a position; the answer says whether it happened. */
async function close(trader: Trader, record: Recorder, position: Position, partial: boolean) {
  const { csrf, key, heldLots } = await orderPage(trader, position);
  const lots = partial ? 10 : position.lotsMilli;
  const cont = lots ? (lots / 1000).toFixed(3).replace(/0+$/, '') : heldLots;
  if (!csrf || !cont) return;
  const form = { csrf, intent: 'close', id: String(position.id), cont, idempotency_key: key };
  try {
    const answer = await trader.browser.post('/order?type=1', form, 'order');
    if (answer.status === 302 && answer.location.startsWith('/order')) {
      if (partial) {
        // The closed part is its own row under the close's key, pointing at the position.
        record.attempt(key, 'partial-close', 'acked', undefined, position.id);
        position.lotsMilli -= lots;
      } else trader.positions = trader.positions.filter((p) => p !== position);
    } else if (answer.status === 400) {
      if (partial) record.attempt(key, 'partial-close', 'refused', undefined, position.id);
      // Closed meanwhile (take profit, stop loss, stop-out): it is no longer the trader's to close.
      trader.positions = trader.positions.filter((p) => p !== position);
    } else {
      if (answer.location.startsWith('/login')) signedOut(trader, '/order');
      lost();
    }
  } catch (error) {
    if (!(error instanceof NoAnswer)) throw error;
    lost();
  }
  // The answer is lost: the position may be smaller or gone, so the trader leaves it (a later "part" of it could
  // be all that is left, closing it whole under a key no row carries).
  function lost() {
    if (partial) record.attempt(key, 'partial-close', 'unknown', undefined, position.id);
    trader.positions = trader.positions.filter((p) => p !== position);
  }
}

/** Sets a position's stops far from the market (a trader's wide guard), through the detail popup's form. */
async function modify(trader: Trader, position: Position) {
  const { csrf } = await orderPage(trader, position);
  const quote = await trader.browser.get(`/trade?code=${position.code}`);
  const price = field(quote.text, 'seen_price');
  if (!csrf || !price) return;
  const digits = price.split('.')[1]?.length ?? 0;
  // Far from the price on the side each belongs: the stops are valid, and the position stays open.
  const far = (f: number) => (Number(price) * f).toFixed(digits);
  const buy = position.side === '1';
  const form: Record<string, string> = {
    csrf,
    intent: 'stops',
    id: String(position.id),
    take_profit: buy ? far(1.5) : far(0.5),
    stop_loss: buy ? far(0.5) : far(1.5),
  };
  // A third of the changes are trailing stops, 1 % of the price behind it.
  if (Math.random() < 0.33) form.trail_distance = far(0.01);
  await trader.browser.post('/order?type=1', form, 'order').catch(() => {});
}

async function cancel(trader: Trader, position: Position) {
  const { csrf } = await orderPage(trader, position);
  if (!csrf) return;
  const answer = await trader.browser.post('/order?type=0', { csrf, intent: 'cancel', id: String(position.id) }, 'order').catch(() => null);
  if (answer && (answer.status === 302 || answer.status === 400)) trader.positions = trader.positions.filter((p) => p !== position);
}

/** A price alert near the price (some fire within minutes), or, with a few set, one deleted: the alerts screen's forms. */
async function alert(trader: Trader) {
  const code = pick(CODES);
  const path = `/alerts?code=${code}`;
  const page = await trader.browser.get(path);
  const csrf = field(page.text, 'csrf');
  if (!csrf) return;
  const ids = [...page.text.matchAll(/confirm=delete&(?:amp;)?id=(\d+)/g)].map((m) => m[1]!);
  if (ids.length > 3 || (ids.length > 0 && Math.random() < 0.3)) {
    await trader.browser.post(path, { csrf, intent: 'delete', id: pick(ids), code }, 'alert');
    return;
  }
  const price = field((await trader.browser.get(`/trade?code=${code}`)).text, 'seen_price');
  if (!price) return;
  const digits = price.split('.')[1]?.length ?? 0;
  // Within 0.2 % either way; the direction is left to the price, as a trader who types only a price leaves it.
  await trader.browser.post(
    path,
    { csrf, intent: 'add', code, price: (Number(price) * (1 + (Math.random() - 0.5) * 0.004)).toFixed(digits) },
    'alert',
  );
}

/**
 * A trader's book stays steady, as a person's does: at this many positions (or pending orders) the trader closes (or
 * cancels) one instead of opening another. Placing outran closing, so the hour ended with six times the open orders of
 * its fifth minute, and the memory check compared the pages of a book that had grown, not the processes (decision 0046).
 */
const STEADY_BOOK = { held: 10, pending: 3 };

/**
 * The orders screen as a trader reads it: an order it holds but does not know of (its answer was lost and never sent
 * again, or a close's answer was lost and the position stayed) joins its book, so that the steady book counts it and
 * closes or cancels it in turn. Unknown, such orders grew the book by a few a minute, and the web's memory with it
 * (the seventh hour, decision 0046).
 */
async function readBook(trader: Trader, pending: boolean) {
  const page = await trader.browser.get(`/order?type=${pending ? 0 : 1}`);
  for (const [, id] of page.text.matchAll(/detail=(\d+)/g)) {
    if (!trader.positions.some((p) => p.id === Number(id)))
      trader.positions.push({ id: Number(id), code: '', lotsMilli: 0, side: '', pending });
  }
}

/** The back office's reviews so far, each kind in turn: deposits approve and reject alternately, withdrawals two in three. */
export interface Reviews {
  deposits: number;
  withdrawals: number;
}

/** One thing the trader does, chosen at random. */
export async function act(trader: Trader, upstream: Upstream, record: Recorder, reviews: Reviews) {
  const held = trader.positions.filter((p) => !p.pending);
  const waiting = trader.positions.filter((p) => p.pending);
  const roll = Math.random();
  try {
    if (trader.retry.length > 0 && roll < 0.3) {
      const again = trader.retry.shift()!;
      await sendOrder(trader, again.path, again.form);
    } else if (roll < 0.35) {
      if (held.length >= STEADY_BOOK.held) await close(trader, record, pick(held), false);
      else await place(trader, false);
    } else if (roll < 0.45) {
      if (waiting.length >= STEADY_BOOK.pending) await cancel(trader, pick(waiting));
      else await place(trader, true);
    } else if (roll < 0.55 && held.some((p) => p.code)) await modify(trader, pick(held.filter((p) => p.code)));
    else if (roll < 0.65 && held.some((p) => p.lotsMilli >= 20))
      await close(trader, record, pick(held.filter((p) => p.lotsMilli >= 20)), true);
    else if (roll < 0.78 && held.length) await close(trader, record, pick(held), false);
    else if (roll < 0.84 && waiting.length) await cancel(trader, pick(waiting));
    else if (roll < 0.88) await alert(trader);
    else if (roll < 0.9 && trader.email) {
      // Deposits approved and rejected in turn by the back office.
      await deposit(trader, upstream, '100', reviews.deposits++ % 2 ? 'reject' : 'approve');
    } else if (roll < 0.92 && trader.email) await withdraw(trader, upstream, reviews.withdrawals++ % 3 ? 'approve' : 'reject');
    else if (roll < 0.95) await readBook(trader, Math.random() < 0.3);
    else await trader.browser.get(pick(['/', `/trade?code=${pick(CODES)}`, '/mine']));
  } catch (error) {
    // A lost answer is already in the record; anything else is noted as a failed step.
    if (!(error instanceof NoAnswer))
      record.request({ kind: 'step', path: 'trader step', started: Date.now(), ended: Date.now(), failed: true, detail: String(error) });
  }
}

/** The trader's loop until `until`: act, then read the screen for a while. */
export async function trade(
  trader: Trader,
  upstream: Upstream,
  record: Recorder,
  until: number,
  thinkMs: [number, number],
  reviews: Reviews,
) {
  while (Date.now() < until) {
    await act(trader, upstream, record, reviews);
    await sleep(thinkMs[0] + Math.random() * (thinkMs[1] - thinkMs[0]));
  }
}

/** At the end: every lost answer sent once more with its key, so each resolves to the order that exists (or none). */
export async function settle(trader: Trader) {
  for (const again of trader.retry.splice(0)) await sendOrder(trader, again.path, again.form);
}
