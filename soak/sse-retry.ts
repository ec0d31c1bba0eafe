/**
 * The `retry:` field of an event stream, read off a raw HTTP/1.1 response as EventSource reads it: past the response
 * head, a chunked body unframed, lines ended by LF or CR (CRLF's extra empty line only dispatches an event, which
 * changes no retry), and a `retry` field whose value is all digits sets the reconnection time. The soak's stream
 * clients reconnect after it, so the server's spread reaches the soak as it reaches browsers. Other lines are skipped
 * in place, never copied: the soak holds 5,000 streams.
 */

/** EventSource's reconnection time until its stream sets one (Chromium's default). */
export const DEFAULT_RETRY_MS = 3_000;

const LF = 0x0a;
const CR = 0x0d;
const FIELD = 'retry:';
/** A retry line longer than this is no number a browser would take either. */
const MAX_LINE = 64;

export class RetryReader {
  private head = '';
  private inHead = true;
  private chunked = false;
  /** In a chunked body: bytes left of the current chunk, or -1 while its size line is read. */
  private chunkLeft = -1;
  /** The CRLF after a chunk's data still to skip. */
  private chunkTrailer = 0;
  private sizeLine = '';
  private ended = false;
  /** The current line so far, while it may still be a `retry` field; null while the rest of a line is skipped. */
  private line: string | null = '';

  /** Carried from the last connection: EventSource keeps its reconnection time across reconnects. */
  constructor(public retryMs = DEFAULT_RETRY_MS) {}

  /** Reads the next bytes of the response. */
  feed(b: Buffer): void {
    let i = 0;
    if (this.inHead) {
      const end = (this.head + b.toString('latin1', 0, 4096)).indexOf('\r\n\r\n');
      if (end < 0) {
        this.head += b.toString('latin1');
        return;
      }
      i = end + 4 - this.head.length;
      this.head += b.toString('latin1', 0, i);
      this.chunked = /\r\ntransfer-encoding:[^\r]*chunked/i.test(this.head);
      this.inHead = false;
    }
    if (!this.chunked) return this.body(b, i, b.length);
    while (i < b.length && !this.ended) {
      if (this.chunkTrailer > 0) {
        const n = Math.min(this.chunkTrailer, b.length - i);
        this.chunkTrailer -= n;
        i += n;
      } else if (this.chunkLeft < 0) {
        const lf = b.indexOf(LF, i);
        this.sizeLine += b.toString('latin1', i, lf < 0 ? b.length : lf);
        if (lf < 0) return;
        i = lf + 1;
        this.chunkLeft = parseInt(this.sizeLine, 16) || 0;
        this.sizeLine = '';
        // The last chunk (size 0): the stream has ended.
        if (this.chunkLeft === 0) return void (this.ended = true);
      } else {
        const n = Math.min(this.chunkLeft, b.length - i);
        this.body(b, i, i + n);
        i += n;
        this.chunkLeft -= n;
        if (this.chunkLeft === 0) {
          this.chunkLeft = -1;
          this.chunkTrailer = 2;
        }
      }
    }
  }

  /** The event stream's bytes b[from, to). */
  private body(b: Buffer, from: number, to: number): void {
    let i = from;
    // Where the next CR is (-1: none), found once per call: a stream of LF lines has none to look for again.
    let cr = -2;
    while (i < to) {
      const c = b[i]!;
      if (c === LF || c === CR) {
        if (this.line !== null) this.endLine(this.line);
        this.line = '';
        i++;
      } else if (this.line === null) {
        // Skipping a line that is no `retry` field: on to its end.
        const lf = b.indexOf(LF, i);
        if (cr !== -1 && cr < i) cr = b.indexOf(CR, i);
        i = Math.min(lf < 0 || lf >= to ? to : lf, cr < 0 || cr >= to ? to : cr);
      } else {
        this.line += String.fromCharCode(c);
        i++;
        const n = Math.min(this.line.length, FIELD.length);
        if (this.line.slice(0, n) !== FIELD.slice(0, n) || this.line.length > MAX_LINE) this.line = null;
      }
    }
  }

  private endLine(line: string): void {
    if (!line.startsWith(FIELD)) return;
    const value = line.slice(FIELD.length).replace(/^ /, '');
    if (/^\d+$/.test(value)) this.retryMs = Number(value);
  }
}
