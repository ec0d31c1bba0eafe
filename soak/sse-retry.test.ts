/** The soak's stream clients read `retry:` as EventSource does (./sse-retry.ts), from node's real chunked responses too. */
import http from 'node:http';
import net from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { DEFAULT_RETRY_MS, RetryReader } from './sse-retry';
import { startStreamClients } from './streams';

const HEAD = 'HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n';
const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;

/** The reader's retry after these bytes, fed in pieces cut at `cuts`. */
function readIn(raw: string, cuts: number[] = [], start?: number): number {
  const reader = new RetryReader(start);
  const bytes = Buffer.from(raw, 'latin1');
  let from = 0;
  for (const at of [...cuts, bytes.length]) {
    reader.feed(bytes.subarray(from, at));
    from = at;
  }
  return reader.retryMs;
}

test("until a stream says otherwise, the browser's default; a reconnect keeps the time the last stream set", () => {
  expect(readIn(HEAD + chunk('event: status\ndata: {}\n\n'))).toBe(DEFAULT_RETRY_MS);
  expect(readIn(HEAD + chunk('event: status\ndata: {}\n\n'), [], 4321)).toBe(4321);
});

test('the retry field is read wherever the bytes are cut, and the last one wins', () => {
  const raw = HEAD + chunk('retry: 2345\n\nevent: status\ndata: {"state":"up"}\n\n') + chunk(': heartbeat\n\nretry: 1777\n\n');
  for (let a = 0; a < raw.length; a++) {
    expect(readIn(raw.slice(0, raw.indexOf(chunk(': heartbeat\n\nretry: 1777\n\n'))), [a])).toBe(2345);
    expect(readIn(raw, [a])).toBe(1777);
    expect(readIn(raw, [a, Math.min(raw.length, a + 7)])).toBe(1777);
  }
});

test('a retry line cut by the chunked framing is whole once unframed', () => {
  expect(readIn(HEAD + chunk('data: 1\n\nret') + chunk('ry: 4') + chunk('567\n\n'))).toBe(4567);
});

test('only a `retry` field of digits counts: not in data, not with other characters; CR, CRLF, no space', () => {
  expect(readIn(HEAD + chunk('data: retry: 99\n\nretry: 12x\n\nretry:\n\n'))).toBe(DEFAULT_RETRY_MS);
  expect(readIn(HEAD + chunk(' retry: 99\n\nxretry: 99\n\n'))).toBe(DEFAULT_RETRY_MS);
  expect(readIn(HEAD + chunk('retry:777\r\n\r\n'))).toBe(777);
  expect(readIn(HEAD + chunk('data: x\rretry: 888\r\r'))).toBe(888);
  // Not in the response head, nor a chunk's size line.
  expect(readIn('HTTP/1.1 200 OK\r\nretry: 5\r\nTransfer-Encoding: chunked\r\n\r\n' + chunk('data: 1\n\n'))).toBe(DEFAULT_RETRY_MS);
});

test('a body that is not chunked (Content-Length, or until the connection closes)', () => {
  expect(readIn('HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\nretry: 2500\n\n', [20, 45])).toBe(2500);
});

const servers: http.Server[] = [];
afterEach(() => servers.splice(0).forEach((s) => (s.closeAllConnections(), s.close())));

test("from node's own server, written as the relay writes it (several writes, then an end with a new retry)", async () => {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', Connection: 'keep-alive' });
    res.write('retry: 1500\n\nevent: status\ndata: {"state":"up"}\n\n');
    setTimeout(() => res.write(`id: 1\nevent: quotes\ndata: [${'{"instrumentId":1},'.repeat(2000)}{}]\n\n`), 10);
    setTimeout(() => res.end('retry: 6500\n\n'), 40);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const socket = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
  socket.write('GET /stream?v=3 HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n');
  const reader = new RetryReader();
  const seen: number[] = [];
  // Until the end's retry arrives (the server keeps the connection open after it), or the connection ends.
  await new Promise<void>((done) => {
    socket.on('data', (b: Buffer) => {
      reader.feed(b);
      seen.push(reader.retryMs);
      if (reader.retryMs === 6500) done();
    });
    socket.once('end', done);
  });
  socket.destroy();
  expect(seen).toContain(1500);
  expect(reader.retryMs).toBe(6500);
});

test("the soak's stream clients come back after the retry their stream last sent, even when the server just vanishes", async () => {
  const opened: number[] = [];
  const vanished: number[] = [];
  const retries = [800, 150];
  const server = http.createServer((_req, res) => {
    const n = opened.push(performance.now()) - 1;
    res.writeHead(200, { 'Content-Type': 'text/event-stream', Connection: 'keep-alive' });
    if (n >= retries.length) return void res.write('event: status\ndata: {}\n\n');
    res.write(`retry: ${retries[n]}\n\nevent: status\ndata: {}\n\n`);
    // As a crashed worker: no end, no last word, the connection is just gone.
    setTimeout(() => (vanished.push(performance.now()), res.socket?.destroy()), 50);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const began = Date.now();
  const clients = startStreamClients((server.address() as net.AddressInfo).port, 1, 0);
  try {
    const deadline = Date.now() + 15_000;
    while (opened.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(opened).toHaveLength(3);
    const gaps = [opened[1]! - vanished[0]!, opened[2]! - vanished[1]!];
    expect(gaps[0]).toBeGreaterThanOrEqual(800 - 20);
    expect(gaps[1]).toBeGreaterThanOrEqual(150 - 20);
    // The second stream's shorter retry is the one taken: a timer of its own (1 s or more) or the browser's default
    // (3 s) would not come back this soon.
    expect(gaps[1]).toBeLessThan(900);
    // What a fault's line reports: the streams lost since, and each one's time until it was open again.
    const report = await clients.report(began);
    expect(report.lostSince).toBe(2);
    expect(report.backSince).toHaveLength(2);
    expect(report.backSince[0]).toBeGreaterThanOrEqual(800 - 20);
    expect(report.backSince[1]).toBeLessThan(900);
  } finally {
    await clients.stop();
  }
}, 20_000);
