/**
 * `npm run admin -- <verb>`: the back office, talking to the running upstream (its address and admin key
 * are in the data folder, written at start).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ADDRESS_FILE, ADMIN_KEY_FILE } from './index';
import { readUpstreamConfig } from './config';

const USAGE = `usage: npm run admin -- <verb>
  outbox [recipient]                       the latest e-mails and SMS (verification codes)
  market <CODE|all> <open|closed|auto>     force a market open or closed, or back to its hours
  balance <uid|email> <±amount> <memo…>    adjust a balance (ledger type 10, with the memo)
  leverage <CODE> [v1,v2,…]                the leverage values offered (none: orders cannot be placed)
  setting <key> <value>                    change a base setting (verify_reg_type, trade_fee_type, is_show_mobile…)
  price <CODE> <price>                     set a price now (only when started with UPSTREAM_TEST_HOOKS=1)
  deposits [pending] [user]                deposits, newest first (only those waiting for review; of one user)
  deposit approve|reject|invalid <id> [remark…]   review a deposit (approve credits the balance, once)
  withdrawals [pending] [user]             withdrawal requests, newest first
  withdrawal approve|reject <id> [remark…] pay a withdrawal, or reject it (the amount goes back)
  image <name> <file>                      save an uploaded image (a deposit's proof) to a file
  factors-reset <uid|email> <operator> <reason…>   after checking the owner's identity (lost phone): remove the
                                           authenticator and recovery codes, end every session, hold withdrawals
                                           72 hours and e-mail the owner; your name and the reason are logged
  kyc pending                              identity checks waiting for review
  kyc approve|reject <uid|email> [reason…] certify an identity, or send the form back with the reason
  news                                     the articles (id, languages, title)
  news add <lang> <title> <file.html> [summary…]   publish an article (its HTML from a file)
  news translate <id> <lang> <title> <file.html> [summary…]   add a language to an article
  news remove <id>                         take an article down
  channels                                 deposit channels and withdrawal currencies
  channel key=value…                       add or change a deposit channel (id=N to change; kind=coin|wire,
                                           currency, protocol, address, bank_name, bank_address, bank_swift,
                                           payee_name, payee_account, enabled=true|false)
  currency key=value…                      add or change a withdrawal currency (id=N to change; type=1|2, code,
                                           protocol, fee_type=1 fixed|2 percent, rate, usd_price, min, max, enabled)`;

const config = (() => {
  try {
    return readUpstreamConfig();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
})();
const dataDir = path.resolve(config.DATA_DIR);
/** The upstream to talk to: UPSTREAM_URL, else the address the running upstream wrote in DATA_DIR. */
const upstreamBase = () => (config.UPSTREAM_URL && config.UPSTREAM_URL !== 'auto' ? config.UPSTREAM_URL : read(ADDRESS_FILE));
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

/** `key=value` words into an object (true/false and numbers for the fields that are). */
function keyValues(words: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const w of words) {
    const i = w.indexOf('=');
    if (i <= 0) fatal(`expected key=value, got ${w}\n${USAGE}`);
    const [k, v] = [w.slice(0, i), w.slice(i + 1)];
    out[k] = v === 'true' ? true : v === 'false' ? false : ['id', 'type', 'fee_type'].includes(k) ? Number(v) : v;
  }
  return out;
}

const money = (n: unknown) => Number(n).toFixed(2);
const when = (ms: unknown) => new Date(Number(ms)).toISOString().replace('T', ' ').slice(0, 19);
const DEPOSIT_STATUS = ['pending review', 'finished', 'rejected', 'invalid'];
const WITHDRAW_STATUS = ['pending', 'paid', 'rejected'];

async function admin(method: 'GET' | 'POST', urlPath: string, body?: unknown) {
  const base = upstreamBase();
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
    const { outbox } = (await admin('GET', `/admin/outbox${q}`)) as {
      outbox: { created_at: number; channel: string; recipient: string; subject: string; body: string }[];
    };
    if (outbox.length === 0) console.log('(the outbox is empty)');
    for (const m of outbox)
      console.log(`${new Date(m.created_at).toISOString()}  ${m.channel} → ${m.recipient}\n  ${m.subject}: ${m.body}`);
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
  case 'deposits':
  case 'withdrawals': {
    const pending = args[0] === 'pending';
    const user = pending ? args[1] : args[0];
    const q = new URLSearchParams({ ...(pending ? { pending: '1' } : {}), ...(user ? { user } : {}) });
    const out = (await admin('GET', `/admin/${verb}?${q}`)) as Record<string, Record<string, unknown>[]>;
    const rows = out[verb]!;
    if (rows.length === 0) console.log(`(no ${verb})`);
    for (const r of rows) {
      if (verb === 'deposits') {
        const rail = r.type === 0 ? `${String(r.currency_code)} ${String(r.protocol_code)}` : `${String(r.currency_code)} wire`;
        console.log(
          `#${String(r.id)}  ${when(r.created_at)}  ${String(r.email ?? r.uid)}  ${money(r.number)} USD  ${rail}  ${DEPOSIT_STATUS[Number(r.status)]}  proof ${String(r.proof)}${r.remark ? `  (${String(r.remark)})` : ''}`,
        );
      } else {
        const to = r.type === 1 ? String(r.address) : `${String(r.bank_name)} ${String(r.payee_name)} ${String(r.payee_account)}`;
        console.log(
          `#${String(r.id)}  ${when(r.created_at)}  ${String(r.email ?? r.uid)}  ${money(r.number)} USD − fee ${money(r.fee)} = ${money(r.real_number)}  ${String(r.currency_code)} ${String(r.protocol)} → ${to}  ${WITHDRAW_STATUS[Number(r.status)]}${r.remark ? `  (${String(r.remark)})` : ''}`,
        );
      }
    }
    break;
  }
  case 'deposit':
  case 'withdrawal': {
    const [action, id, ...remark] = args;
    const allowed = verb === 'deposit' ? ['approve', 'reject', 'invalid'] : ['approve', 'reject'];
    if (!action || !allowed.includes(action) || !id || !/^\d+$/.test(id)) fatal(USAGE);
    const out = (await admin('POST', `/admin/${verb}`, { id: Number(id), action, remark: remark.join(' ') })) as Record<
      string,
      { status: number }
    >;
    const status = out[verb]!.status;
    console.log(`${verb} #${id}: ${(verb === 'deposit' ? DEPOSIT_STATUS : WITHDRAW_STATUS)[status]}`);
    break;
  }
  case 'image': {
    const [name, file] = args;
    if (!name || !file) fatal(USAGE);
    const base = upstreamBase();
    const res = await fetch(new URL(`/admin/image/${encodeURIComponent(name.replace(/^.*\//, ''))}`, base), {
      headers: { 'x-admin-key': read(ADMIN_KEY_FILE) },
    });
    if (!res.ok) fatal(`no image ${name} (${res.status})`);
    fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    console.log(`saved ${file}`);
    break;
  }
  case 'factors-reset': {
    const [user, operator, ...reason] = args;
    if (!user || !operator || reason.length === 0) fatal(USAGE);
    const { held_until } = (await admin('POST', '/admin/factors/reset', { user, operator, reason: reason.join(' ') })) as {
      held_until: number;
    };
    console.log(`${user}: factors removed by ${operator}, every session ended, withdrawals held until ${when(held_until)} UTC`);
    break;
  }
  case 'kyc': {
    const [action, user, ...reason] = args;
    if (action === 'pending') {
      const { kyc } = (await admin('GET', '/admin/kyc')) as { kyc: Record<string, unknown>[] };
      if (kyc.length === 0) console.log('(no identity checks waiting)');
      for (const k of kyc)
        console.log(
          `${String(k.uid)}  ${String(k.email ?? '')}  ${String(k.name)}  ${String(k.card_id)}  front ${String(k.front)}  back ${String(k.back)}  since ${when(k.submitted_at)}`,
        );
      break;
    }
    if (!['approve', 'reject'].includes(action ?? '') || !user) fatal(USAGE);
    const { kyc } = (await admin('POST', '/admin/kyc', { user, action, reason: reason.join(' ') })) as { kyc: { status: number } };
    console.log(`${user}: ${kyc.status === 2 ? 'certified' : 'rejected'}`);
    break;
  }
  case 'news': {
    const [action, ...rest] = args;
    if (!action) {
      const { news } = (await admin('GET', '/admin/news')) as { news: Record<string, unknown>[] };
      for (const n of news)
        console.log(
          `#${String(n.id)}  ${when(n.created_at)}  [${String(n.langs ?? '')}]  ${String(n.title ?? '')}${n.removed_at ? '  (removed)' : ''}`,
        );
      break;
    }
    if (action === 'remove') {
      if (!rest[0] || !/^\d+$/.test(rest[0])) fatal(USAGE);
      await admin('POST', '/admin/news/remove', { id: Number(rest[0]) });
      console.log(`article #${rest[0]} removed`);
      break;
    }
    const translating = action === 'translate';
    if (action !== 'add' && !translating) fatal(USAGE);
    const [id, lang, title, file, ...summary] = translating ? rest : [undefined, ...rest];
    if (!lang || !title || !file || (translating && !/^\d+$/.test(id ?? ''))) fatal(USAGE);
    const body = { id: id ? Number(id) : undefined, lang, title, content: fs.readFileSync(file, 'utf8'), summary: summary.join(' ') };
    const out = (await admin('POST', '/admin/news', body)) as { id: number };
    console.log(`article #${out.id} (${lang}) published`);
    break;
  }
  case 'channels': {
    const { channels, currencies } = (await admin('GET', '/admin/channels')) as {
      channels: Record<string, unknown>[];
      currencies: Record<string, unknown>[];
    };
    console.log('deposit channels:');
    for (const c of channels) {
      const where =
        c.kind === 'coin'
          ? `${String(c.protocol_code)} ${String(c.address)}`
          : `${String(c.bank_name)} · ${String(c.payee_name)} · ${String(c.payee_account)} · ${String(c.bank_swift)}`;
      console.log(`  #${String(c.id)} ${String(c.kind)} ${String(c.currency_code)} ${where}${c.enabled ? '' : ' (disabled)'}`);
    }
    console.log('withdrawal currencies:');
    for (const c of currencies) {
      const fee = c.fee_type === 1 ? `fee ${String(c.draw_rate)} USD` : `fee ${String(c.draw_rate)} %`;
      console.log(
        `  #${String(c.id)} type ${String(c.type)} ${String(c.code)} ${String(c.protocol)} ${fee}, ${String(c.usd_price)} USD each, ${String(c.min_amount)}–${String(c.max_amount)} USD${c.enabled ? '' : ' (disabled)'}`,
      );
    }
    break;
  }
  case 'channel':
  case 'currency': {
    const given = keyValues(args);
    const { channels, currencies } = (await admin('GET', '/admin/channels')) as {
      channels: Record<string, unknown>[];
      currencies: Record<string, unknown>[];
    };
    let body: Record<string, unknown> = given;
    if (given.id !== undefined) {
      // A change keeps every field it does not name.
      if (verb === 'channel') {
        const c = channels.find((x) => x.id === given.id);
        if (c)
          body = {
            kind: c.kind,
            currency: c.currency_code,
            protocol: c.protocol_code ?? undefined,
            address: c.address ?? undefined,
            bank_name: c.bank_name ?? undefined,
            bank_address: c.bank_address ?? undefined,
            bank_swift: c.bank_swift ?? undefined,
            payee_name: c.payee_name ?? undefined,
            payee_account: c.payee_account ?? undefined,
            enabled: c.enabled === 1,
            ...given,
          };
      } else {
        const c = currencies.find((x) => x.id === given.id);
        if (c)
          body = {
            type: c.type,
            code: c.code,
            protocol: c.protocol,
            fee_type: c.fee_type,
            rate: String(c.draw_rate),
            usd_price: String(c.usd_price),
            min: String(c.min_amount),
            max: String(c.max_amount),
            enabled: c.enabled === 1,
            ...given,
          };
      }
    }
    const out = await admin('POST', `/admin/${verb}`, body);
    console.log(JSON.stringify(out[verb]));
    break;
  }
  default:
    fatal(USAGE);
}
