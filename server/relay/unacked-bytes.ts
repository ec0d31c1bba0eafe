/**
 * How far behind each stream client really is. A client that stops reading is not seen by node at once:
 * the kernel's send buffer (megabytes, autotuned) takes the bytes and `write()` keeps returning true for
 * minutes at stream rates. The kernel knows better: `/proc/net/tcp{,6}` lists, per connection, the bytes
 * sent and not yet acknowledged by the peer (tx_queue). A peer that reads acknowledges within a round
 * trip; one that does not leaves them queued. Linux only; elsewhere the answer is null and the hub keeps
 * its byte and back-pressure bounds.
 */
import { readFile } from 'node:fs/promises';

const TABLES = ['/proc/net/tcp', '/proc/net/tcp6'];

/** The key of a connection as the hub names it: the peer's address and port. */
export function connectionKey(address: string, port: number): string {
  return `${canonicalAddress(address)}|${port}`;
}

/** IPv4 as dotted quads (an IPv4-mapped IPv6 address too), IPv6 in its compressed form. */
function canonicalAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  try {
    return new URL(`http://[${address}]`).hostname.slice(1, -1);
  } catch {
    return address;
  }
}

/** `0100007F` → 127.0.0.1; 32 hex digits → an IPv6 address (each 32-bit word is in host byte order). */
function procAddress(hex: string): string {
  const words = hex.match(/.{8}/g) ?? [];
  const bytes = words.flatMap((w) => [w.slice(6, 8), w.slice(4, 6), w.slice(2, 4), w.slice(0, 2)].map((b) => parseInt(b, 16)));
  if (bytes.length === 4) return bytes.join('.');
  // An IPv4 peer of a dual-stack listener: ::ffff:a.b.c.d
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) return bytes.slice(12).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => ((bytes[2 * i]! << 8) | bytes[2 * i + 1]!).toString(16));
  return canonicalAddress(groups.join(':'));
}

/**
 * Unacknowledged bytes by peer (address|port) of the connections to `localPort` that have any.
 * The tables list every socket of the machine (tens of thousands beside 20,000 streams: megabytes of text), so
 * a line is looked at in place: its local port and its queue are compared where they stand, and only a line of
 * ours with a non-zero queue is decoded. (Splitting every line into its fields made about a million strings a
 * read and held the event loop 50–90 ms at 9,000 connections: decision 0023.)
 */
export function parseUnacked(tables: readonly string[], localPort: number): Map<string, number> {
  const port = localPort.toString(16).toUpperCase().padStart(4, '0');
  const result = new Map<string, number>();
  for (const text of tables) {
    // "  12: 0100007F:0BB8 0100007F:D2F4 01 0001A2B0:00000000 …": after the slot number each field has a fixed
    // width (an address is 8 hex digits, 32 in tcp6). The first line is the header.
    for (let start = text.indexOf('\n') + 1; start > 0 && start < text.length;) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      const local = text.indexOf(': ', start) + 2;
      const localColon = local > 1 && local < end ? text.indexOf(':', local) : -1;
      const width = localColon - local;
      if (width === 8 || width === 32) {
        const remote = localColon + 6; // after ":PORT "
        const queue = remote + width + 9; // after ":PORT ST "
        if (text.startsWith(port, localColon + 1) && queue + 8 <= end && !text.startsWith('00000000', queue)) {
          const tx = parseInt(text.slice(queue, queue + 8), 16);
          const remotePort = parseInt(text.slice(remote + width + 1, remote + width + 5), 16);
          if (tx > 0) result.set(connectionKey(procAddress(text.slice(remote, remote + width)), remotePort), tx);
        }
      }
      start = end + 1;
    }
  }
  return result;
}

/** Reads the kernel's tables; null where there are none (not Linux, or /proc hidden). */
export async function readUnacked(localPort: number): Promise<Map<string, number> | null> {
  const texts = await Promise.all(TABLES.map((t) => readFile(t, 'utf8').catch(() => null)));
  if (texts.every((t) => t === null)) return null;
  return parseUnacked(
    texts.filter((t): t is string => t !== null),
    localPort,
  );
}
