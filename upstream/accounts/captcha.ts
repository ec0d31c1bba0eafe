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

/**
 * Strokes of each character on a 4 × 6 grid (y down). The picture carries no text element and no font:
 * a reader must see the shapes, as a person does.
 */
type Stroke = readonly (readonly [number, number])[];
const GLYPHS: Record<string, readonly Stroke[]> = {
  A: [
    [
      [0, 6],
      [2, 0],
      [4, 6],
    ],
    [
      [1, 3.5],
      [3, 3.5],
    ],
  ],
  B: [
    [
      [0, 0],
      [0, 6],
      [3, 6],
      [4, 5],
      [4, 4],
      [3, 3],
      [0, 3],
    ],
    [
      [0, 0],
      [3, 0],
      [4, 1],
      [4, 2],
      [3, 3],
    ],
  ],
  C: [
    [
      [4, 1],
      [3, 0],
      [1, 0],
      [0, 1],
      [0, 5],
      [1, 6],
      [3, 6],
      [4, 5],
    ],
  ],
  D: [
    [
      [0, 0],
      [0, 6],
      [2.5, 6],
      [4, 4.5],
      [4, 1.5],
      [2.5, 0],
      [0, 0],
    ],
  ],
  E: [
    [
      [4, 0],
      [0, 0],
      [0, 6],
      [4, 6],
    ],
    [
      [0, 3],
      [3, 3],
    ],
  ],
  F: [
    [
      [4, 0],
      [0, 0],
      [0, 6],
    ],
    [
      [0, 3],
      [3, 3],
    ],
  ],
  G: [
    [
      [4, 1],
      [3, 0],
      [1, 0],
      [0, 1],
      [0, 5],
      [1, 6],
      [3, 6],
      [4, 5],
      [4, 3.5],
      [2.5, 3.5],
    ],
  ],
  H: [
    [
      [0, 0],
      [0, 6],
    ],
    [
      [4, 0],
      [4, 6],
    ],
    [
      [0, 3],
      [4, 3],
    ],
  ],
  J: [
    [
      [4, 0],
      [4, 5],
      [3, 6],
      [1, 6],
      [0, 5],
    ],
  ],
  K: [
    [
      [0, 0],
      [0, 6],
    ],
    [
      [4, 0],
      [0, 3.5],
    ],
    [
      [1.3, 2.6],
      [4, 6],
    ],
  ],
  L: [
    [
      [0, 0],
      [0, 6],
      [4, 6],
    ],
  ],
  M: [
    [
      [0, 6],
      [0, 0],
      [2, 3.5],
      [4, 0],
      [4, 6],
    ],
  ],
  N: [
    [
      [0, 6],
      [0, 0],
      [4, 6],
      [4, 0],
    ],
  ],
  P: [
    [
      [0, 6],
      [0, 0],
      [3, 0],
      [4, 1],
      [4, 2],
      [3, 3],
      [0, 3],
    ],
  ],
  Q: [
    [
      [1, 0],
      [3, 0],
      [4, 1],
      [4, 5],
      [3, 6],
      [1, 6],
      [0, 5],
      [0, 1],
      [1, 0],
    ],
    [
      [2.5, 4.5],
      [4, 6.3],
    ],
  ],
  R: [
    [
      [0, 6],
      [0, 0],
      [3, 0],
      [4, 1],
      [4, 2],
      [3, 3],
      [0, 3],
    ],
    [
      [2, 3],
      [4, 6],
    ],
  ],
  S: [
    [
      [4, 1],
      [3, 0],
      [1, 0],
      [0, 1],
      [0, 2],
      [1, 3],
      [3, 3],
      [4, 4],
      [4, 5],
      [3, 6],
      [1, 6],
      [0, 5],
    ],
  ],
  T: [
    [
      [0, 0],
      [4, 0],
    ],
    [
      [2, 0],
      [2, 6],
    ],
  ],
  U: [
    [
      [0, 0],
      [0, 5],
      [1, 6],
      [3, 6],
      [4, 5],
      [4, 0],
    ],
  ],
  V: [
    [
      [0, 0],
      [2, 6],
      [4, 0],
    ],
  ],
  W: [
    [
      [0, 0],
      [1, 6],
      [2, 2.5],
      [3, 6],
      [4, 0],
    ],
  ],
  X: [
    [
      [0, 0],
      [4, 6],
    ],
    [
      [4, 0],
      [0, 6],
    ],
  ],
  Y: [
    [
      [0, 0],
      [2, 3],
      [4, 0],
    ],
    [
      [2, 3],
      [2, 6],
    ],
  ],
  Z: [
    [
      [0, 0],
      [4, 0],
      [0, 6],
      [4, 6],
    ],
  ],
  '2': [
    [
      [0, 1],
      [1, 0],
      [3, 0],
      [4, 1],
      [4, 2],
      [0, 6],
      [4, 6],
    ],
  ],
  '3': [
    [
      [0, 0],
      [4, 0],
      [2, 2.5],
      [3, 2.5],
      [4, 3.5],
      [4, 5],
      [3, 6],
      [1, 6],
      [0, 5],
    ],
  ],
  '4': [
    [
      [3, 6],
      [3, 0],
      [0, 4],
      [4, 4],
    ],
  ],
  '5': [
    [
      [4, 0],
      [0, 0],
      [0, 3],
      [3, 2.5],
      [4, 3.5],
      [4, 5],
      [3, 6],
      [1, 6],
      [0, 5],
    ],
  ],
  '6': [
    [
      [3.5, 0],
      [1.5, 0],
      [0, 2],
      [0, 5],
      [1, 6],
      [3, 6],
      [4, 5],
      [4, 4],
      [3, 3],
      [0, 3.2],
    ],
  ],
  '7': [
    [
      [0, 0],
      [4, 0],
      [1.5, 6],
    ],
  ],
  '8': [
    [
      [1, 3],
      [0, 2],
      [0, 1],
      [1, 0],
      [3, 0],
      [4, 1],
      [4, 2],
      [3, 3],
      [1, 3],
      [0, 4],
      [0, 5],
      [1, 6],
      [3, 6],
      [4, 5],
      [4, 4],
      [3, 3],
    ],
  ],
  '9': [
    [
      [4, 2.8],
      [1, 3],
      [0, 2],
      [0, 1],
      [1, 0],
      [3, 0],
      [4, 1],
      [4, 4],
      [2.5, 6],
      [0.5, 6],
    ],
  ],
};

const rand = (min: number, max: number) => min + (crypto.randomInt(0, 1_000_000) / 1_000_000) * (max - min);
const colour = () => `hsl(${crypto.randomInt(0, 360)} ${crypto.randomInt(40, 70)}% ${crypto.randomInt(18, 38)}%)`;

/** One character as jittered strokes under its own rotation, shear and scale. */
function glyphPaths(c: string, originX: number, originY: number): string {
  const angle = rand(-0.35, 0.35);
  const shear = rand(-0.3, 0.3);
  const sx = rand(4.2, 5.2);
  const sy = rand(5, 6);
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  const colourOf = colour();
  return GLYPHS[c]!.map((stroke) => {
    const d = stroke
      .map(([gx, gy], k) => {
        const x0 = (gx - 2 + shear * (gy - 3)) * sx + rand(-0.7, 0.7);
        const y0 = (gy - 3) * sy + rand(-0.7, 0.7);
        const x = originX + x0 * cos - y0 * sin;
        const y = originY + x0 * sin + y0 * cos;
        return `${k === 0 ? 'M' : 'L'}${x.toFixed(1)} ${y.toFixed(1)}`;
      })
      .join('');
    return `<path d="${d}" stroke="${colourOf}" stroke-width="${rand(2.1, 2.8).toFixed(2)}"/>`;
  }).join('');
}

/** Curves and dots in the same inks, so that strokes cannot be told from noise by their style. */
function noise(): string {
  const curves = Array.from({ length: 5 }, () => {
    const p = () => `${rand(0, 150).toFixed(1)} ${rand(0, 50).toFixed(1)}`;
    return `<path d="M${p()}Q${p()} ${p()}" stroke="${colour()}" stroke-width="${rand(1, 2.4).toFixed(2)}"/>`;
  });
  const dots = Array.from(
    { length: 24 },
    () => `<circle cx="${rand(0, 150).toFixed(1)}" cy="${rand(0, 50).toFixed(1)}" r="${rand(0.5, 1.6).toFixed(1)}" fill="${colour()}"/>`,
  );
  return curves.join('') + dots.join('');
}

export function draw(text: string): string {
  const chars = [...text].map((c, i) => glyphPaths(c, 20 + i * 27 + rand(-2, 2), 25 + rand(-3, 3))).join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="150" height="50" viewBox="0 0 150 50">` +
    `<rect width="150" height="50" fill="#f3f4f6"/><g fill="none" stroke-linecap="round" stroke-linejoin="round">${noise()}${chars}</g></svg>`
  );
}
