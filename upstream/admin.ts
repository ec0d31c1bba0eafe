/**
 * `npm run admin -- <verb>`: the back office, talking to the running upstream (its address and admin key
 * are in the data folder, written at start).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ADDRESS_FILE, ADMIN_KEY_FILE } from './index';

const USAGE = `usage: npm run admin -- <verb>
  outbox [recipient]                       the latest e-mails and SMS (verification codes)
  market <CODE|all> <open|closed|auto>     force a market open or closed, or back to its hours
  balance <uid|email> <±amount> <memo…>    adjust a balance (ledger type 10, with the memo)
  leverage <CODE> [v1,v2,…]                the leverage values offered (none: orders cannot be placed)
  setting <key> <value>                    change a base setting (verify_reg_type, trade_fee_type, is_show_mobile…)
  price <CODE> <price>                     set a price now (only when started with UPSTREAM_TEST_HOOKS=1)`;

const dataDir = path.resolve(process.env.DATA_DIR ?? 'data');
const [verb, ...args] = process.argv.slice(2);

function fatal(message: string): never {
  console.error(message);
  process.exit(1);
}

function read(file: string): string {
  const p = path.join(dataDir, file);
  if (!fs.existsSync(p)) fatal(`${p} not found: is the upstream running (npm start or npm run upstream) with DATA_DIR=${dataDir}?`);
  return fs.readFileSync(p, 'utf8').trim();
}

async function admin(method: 'GET' | 'POST', urlPath: string, body?: unknown) {
  const base = process.env.UPSTREAM_URL && process.env.UPSTREAM_URL !== 'auto' ? process.env.UPSTREAM_URL : read(ADDRESS_FILE);
  const res = await fetch(new URL(urlPath, base), {
    method,
    headers: { 'x-admin-key': read(ADMIN_KEY_FILE), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  }).catch((err) => fatal(`cannot reach the upstream at ${base}: ${String(err?.cause ?? err)}`));
  const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) fatal(`refused (${res.status}): ${String(json.error ?? '')}`);
  return json;
}

switch (verb) {
  case 'outbox': {
    const q = args[0] ? `?to=${encodeURIComponent(args[0])}` : '';
    const { outbox } = (await admin('GET', `/admin/outbox${q}`)) as { outbox: { created_at: number; channel: string; recipient: string; subject: string; body: string }[] };
    if (outbox.length === 0) console.log('(the outbox is empty)');
    for (const m of outbox) console.log(`${new Date(m.created_at).toISOString()}  ${m.channel} → ${m.recipient}\n  ${m.subject}: ${m.body}`);
    break;
  }
  case 'market': {
    const [code, status] = args;
    if (!code || !['open', 'closed', 'auto'].includes(status ?? '')) fatal(USAGE);
    const { changed } = (await admin('POST', '/admin/market', { code, status })) as { changed: { code: string; status: number }[] };
    for (const c of changed) console.log(`${c.code}: ${c.status === 1 ? 'open' : 'closed'}`);
    break;
  }
  case 'balance': {
    const [user, amount, ...memo] = args;
    if (!user || !amount || memo.length === 0) fatal(USAGE);
    const { balance } = await admin('POST', '/admin/balance', { user, amount, memo: memo.join(' ') });
    console.log(`new balance: ${String(balance)} USD`);
    break;
  }
  case 'leverage': {
    const [code, list = ''] = args;
    if (!code) fatal(USAGE);
    const values = list === '' ? [] : list.split(',').map(Number);
    if (values.some((v) => !Number.isInteger(v) || v <= 0)) fatal(USAGE);
    const out = (await admin('POST', '/admin/leverage', { code, values })) as { code: string; leverages: number[] };
    console.log(`${out.code}: ${out.leverages.length ? out.leverages.join(', ') : 'no leverage (orders disabled)'}`);
    break;
  }
  case 'setting': {
    const [key, value] = args;
    if (!key || value === undefined) fatal(USAGE);
    const out = await admin('POST', '/admin/setting', { key, value });
    console.log(`${String(out.key)} = ${String(out.value)}`);
    break;
  }
  case 'price': {
    const [code, price] = args;
    if (!code || !price) fatal(USAGE);
    const out = await admin('POST', '/admin/price', { code, price });
    console.log(`${String(out.code)} = ${String(out.price)}`);
    break;
  }
  default:
    fatal(USAGE);
}
