/**
 * The picture captcha (verify_reg_type 2): five characters drawn as an SVG with noise, answered once
 * within ten minutes. Kept in memory: a restart only means asking for a new picture.
 */
import crypto from 'node:crypto';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const TTL_MS = 10 * 60 * 1000;

export class CaptchaStore {
  private readonly answers = new Map<string, { answer: string; expires: number }>();

  constructor(private readonly clock: () => number) {}

  create(): { id: string; b64s: string; answer: string } {
    const now = this.clock();
    if (this.answers.size > 50_000) for (const [k, v] of this.answers) if (v.expires < now) this.answers.delete(k);
    const answer = Array.from({ length: 5 }, () => ALPHABET[crypto.randomInt(ALPHABET.length)]).join('');
    const id = crypto.randomBytes(16).toString('hex');
    this.answers.set(id, { answer, expires: now + TTL_MS });
    return { id, b64s: `data:image/svg+xml;base64,${Buffer.from(draw(answer)).toString('base64')}`, answer };
  }

  /** One try per picture: right or wrong, the picture is spent. */
  check(id: string | undefined, text: string): boolean {
    if (!id) return false;
    const entry = this.answers.get(id);
    this.answers.delete(id);
    return !!entry && entry.expires >= this.clock() && entry.answer === text.trim().toUpperCase();
  }

  /** For tests and the admin command: the answer of a live picture. */
  peek(id: string): string | undefined {
    return this.answers.get(id)?.answer;
  }
}

function draw(text: string): string {
  const r = () => crypto.randomInt(0, 1000) / 1000;
  const lines = Array.from(
    { length: 6 },
    () =>
      `<line x1="${(r() * 150).toFixed(1)}" y1="${(r() * 50).toFixed(1)}" x2="${(r() * 150).toFixed(1)}" y2="${(r() * 50).toFixed(1)}" stroke="#${crypto.randomBytes(3).toString('hex')}" stroke-width="1.5"/>`,
  ).join('');
  const chars = [...text]
    .map((c, i) => {
      const x = 14 + i * 26 + r() * 6;
      const y = 34 + r() * 8;
      const rot = (r() - 0.5) * 40;
      return `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" transform="rotate(${rot.toFixed(1)} ${x.toFixed(1)} ${y.toFixed(1)})" font-family="monospace" font-size="28" font-weight="700" fill="#1f2937">${c}</text>`;
    })
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="150" height="50" viewBox="0 0 150 50"><rect width="150" height="50" fill="#f3f4f6"/>${lines}${chars}</svg>`;
}
