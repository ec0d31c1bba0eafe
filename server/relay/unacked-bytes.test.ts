import net from 'node:net';
import { expect, test } from 'vitest';
import { connectionKey, parseUnacked, readUnacked } from './unacked-bytes';

const TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:0BB8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0 100 0 0 10 0
   1: 0100007F:0BB8 0100007F:D2F4 01 0001A2B0:00000000 01:00000014 00000000     0        0 2 1 0 20 4 30 10 -1                                       
   2: 0100007F:0BB8 0100007F:D2F6 01 00000000:00000000 00:00000000 00000000     0        0 3 1 0 20 4 30 10 -1
   3: 0100007F:D2F4 0100007F:0BB8 01 00000000:0001A2B0 00:00000000 00000000     0        0 4 1 0 20 4 30 10 -1
   4: 0100007F:0BB8 0100007F:D2F8 06 00000000:00000000 03:00001167 00000000     0        0 0 3 0
10000: 0100007F:0BB8 0A00000B:D2FA 01 00000020:00000000 01:00000014 00000000     0        0 7 1 0 20 4 30 10 -1
10001: 0100007F:0BB8 0A00000B:D2FC 01 00000001:00000000 01:00000014 00000000     0        0 8 1 0 20 4 30 10 -1`;
const TCP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0000000000000000FFFF00000100007F:0BB8 0000000000000000FFFF00000B00000A:9C40 01 00000400:00000000 00:00000000 00000000     0        0 5 1
   1: 00000000000000000000000001000000:0BB8 B80D0120000000000000000001000000:C350 01 00000010:00000000 00:00000000 00000000     0        0 6 1
`;

test('the kernel tables name, for connections to our port, each peer that has bytes unacknowledged', () => {
  const unacked = parseUnacked([TCP, TCP6], 3000);
  expect([...unacked]).toEqual([
    [connectionKey('127.0.0.1', 0xd2f4), 0x1a2b0],
    // Past slot 9999 the slot number is wider; the last line may end without a newline.
    [connectionKey('11.0.0.10', 0xd2fa), 0x20],
    [connectionKey('11.0.0.10', 0xd2fc), 1],
    [connectionKey('::ffff:10.0.0.11', 40000), 0x400],
    [connectionKey('2001:db8::1', 50000), 0x10],
  ]);
  // The client's own end of a connection (local port is not ours) and listeners do not count.
  expect(parseUnacked([TCP], 0xd2f4).size).toBe(0);
  // Node names a peer as it likes; the key is the same.
  expect(connectionKey('::ffff:127.0.0.1', 80)).toBe(connectionKey('127.0.0.1', 80));
  expect(connectionKey('2001:0db8:0:0:0:0:0:1', 80)).toBe(connectionKey('2001:db8::1', 80));
});

test.runIf(process.platform === 'linux')('on this machine: a peer that stops reading shows bytes unacknowledged', async () => {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  const accepted = new Promise<net.Socket>((r) => server.once('connection', r));
  const client = net.connect(port, '127.0.0.1');
  client.pause(); // never reads
  const peer = await accepted;
  const key = connectionKey(peer.remoteAddress!, peer.remotePort!);
  expect((await readUnacked(port))?.has(key)).toBe(false);
  // More than the client's receive window: the rest stays unacknowledged in our kernel.
  peer.write(Buffer.alloc(8 * 1024 * 1024));
  await new Promise((r) => setTimeout(r, 200));
  expect((await readUnacked(port))?.get(key)).toBeGreaterThan(0);
  client.destroy();
  peer.destroy();
  server.close();
});
