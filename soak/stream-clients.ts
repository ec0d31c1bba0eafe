/**
 * The soak's SSE clients, in a process of their own (a process may hold 20,000 open files here; the soak's own
 * process keeps its files for the traders): raw sockets on `GET /stream`, as many EventSources. A client the server
 * ends comes back after the last `retry:` its stream sent, as EventSource does (./sse-retry.ts: a crashed worker's
 * streams come back as the relay spread them); churn drops some and opens new ones; slow readers
 * stop reading once connected (the relay must end them, and they come back). Answers the parent's questions over
 * IPC: how many are held, and how many of them read a quote since a given time.
 *
 * Run by soak/streams.ts: `node --import tsx soak/stream-clients.ts <port> <held> <slow>`.
 */
import net from 'node:net';
import { RetryReader } from './sse-retry';

interface Client {
  socket: net.Socket;
  slow: boolean;
  /** The response's head arrived: the stream is open. */
  open: boolean;
  /** When a quote last arrived (the opening snapshot counts: it is the latest tick of each instrument). */
  lastQuote: number;
  dropped: boolean;
  /** When the stream this client is reconnecting was lost (its failed attempts meanwhile count in its time back). */
  lostAt: number | null;
}

const [port, held, slow] = process.argv.slice(2).map(Number) as [number, number, number];
const clients = new Set<Client>();
const totals = { opened: 0, endedByServer: 0, churned: 0, errors: 0 };
const QUOTE = Buffer.from('"instrumentId":');
/** Steady clients' streams the server ended (when), and how long each took to be open again (ms from its loss). */
const lost: number[] = [];
const back: { lostAt: number; ms: number }[] = [];

/** `retryMs`: the reconnection time the client's last stream set (EventSource keeps it across reconnects). */
function connect(isSlow: boolean, retryMs?: number, lostAt: number | null = null) {
  const socket = net.connect(port, '127.0.0.1');
  const retry = new RetryReader(retryMs);
  const client: Client = { socket, slow: isSlow, open: false, lastQuote: 0, dropped: false, lostAt };
  clients.add(client);
  totals.opened++;
  socket.on('connect', () => socket.write(`GET /stream?v=3 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`));
  socket.on('data', (b: Buffer) => {
    retry.feed(b);
    if (!client.open) {
      client.open = b.subarray(0, 16).toString().startsWith('HTTP/1.1 200');
      if (client.open && client.lostAt !== null && !client.slow) back.push({ lostAt: client.lostAt, ms: Date.now() - client.lostAt });
      // A slow reader stops reading once it is in: the kernel's buffers fill, then the relay's patience runs out.
      if (client.slow) socket.pause();
    }
    if (b.indexOf(QUOTE) >= 0) client.lastQuote = Date.now();
  });
  socket.on('error', () => totals.errors++);
  socket.on('close', () => {
    clients.delete(client);
    if (client.dropped) return;
    totals.endedByServer++;
    const now = Date.now();
    if (client.open && !isSlow) lost.push(now);
    // EventSource comes back after its retry.
    setTimeout(() => connect(isSlow, retry.retryMs, client.open ? now : client.lostAt), retry.retryMs);
  });
}

function churn(n: number) {
  const candidates = [...clients].filter((c) => !c.slow && c.open);
  for (let i = 0; i < n && candidates.length; i++) {
    const c = candidates.splice(Math.floor(Math.random() * candidates.length), 1)[0]!;
    c.dropped = true;
    c.socket.destroy();
    totals.churned++;
    connect(false);
  }
}

async function start() {
  for (let i = 0; i < held; i += 100) {
    for (let k = i; k < Math.min(held, i + 100); k++) connect(k < slow);
    await new Promise((r) => setTimeout(r, 100));
  }
}

process.on('message', (m: { type: string; since?: number; n?: number; id?: number }) => {
  if (m.type === 'churn') churn(m.n ?? 0);
  if (m.type === 'report') {
    const steady = [...clients].filter((c) => !c.slow);
    process.send!({
      type: 'report',
      id: m.id,
      held: steady.filter((c) => c.open).length,
      slowHeld: [...clients].filter((c) => c.slow && c.open).length,
      quotedSince: steady.filter((c) => c.open && c.lastQuote >= (m.since ?? 0)).length,
      lostSince: lost.filter((t) => t >= (m.since ?? 0)).length,
      // Only for a question about a moment (a fault's): the whole run's list is not sent every few seconds.
      backSince: m.since ? back.filter((r) => r.lostAt >= m.since!).map((r) => r.ms) : [],
      ...totals,
    });
  }
  if (m.type === 'stop') {
    for (const c of clients) {
      c.dropped = true;
      c.socket.destroy();
    }
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
void start();
