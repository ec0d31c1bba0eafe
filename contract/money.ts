/**
 * Exact money and quantity units, and the one rounding rule.
 *
 * Money is an integer count of micro-dollars (1e-6 USD). Prices are integers scaled by the instrument's
 * PricePrecision. Lots are integer thousandths. Nothing here uses a fractional number for money: every
 * computed amount is one `mulDiv` — a product of integers divided by a product of integers — rounded once,
 * half away from zero, to a whole unit.
 */

/** Decimal places of the money unit: 1 unit = 1e-6 USD. */
export const MONEY_DECIMALS = 6;
export const MONEY_SCALE = 1_000_000;
/** Decimal places of the lot unit: 1 unit = 0.001 lot. */
export const LOT_DECIMALS = 3;
export const LOT_SCALE = 1000;

export function pow10(n: number): number {
  if (!Number.isInteger(n) || n < 0 || n > 15) throw new RangeError(`pow10 out of range: ${n}`);
  return 10 ** n;
}

function assertInt(x: number, what: string) {
  if (!Number.isSafeInteger(x)) throw new RangeError(`${what} must be a safe integer, got ${x}`);
}

/** Divide with the house rounding rule: half away from zero. */
export function divRound(n: bigint, d: bigint): bigint {
  if (d === 0n) throw new RangeError('division by zero');
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const q = n / d; // truncates toward zero
  const r = n - q * d;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice >= d) return n < 0n ? q - 1n : q + 1n;
  return q;
}

/**
 * (a₁·a₂·…) ÷ (d₁·d₂·…), rounded once, half away from zero. Exact for any safe-integer inputs: it stays
 * on plain numbers while every intermediate product is a safe integer and moves to BigInt otherwise.
 */
export function mulDiv(factors: readonly number[], divisors: readonly number[]): number {
  let n = 1;
  let d = 1;
  let exact = true;
  for (const f of factors) {
    assertInt(f, 'factor');
    n *= f;
    if (!Number.isSafeInteger(n)) exact = false;
  }
  for (const f of divisors) {
    assertInt(f, 'divisor');
    d *= f;
    if (!Number.isSafeInteger(d)) exact = false;
  }
  if (d === 0) throw new RangeError('division by zero');
  if (exact && Math.abs(n) + Math.abs(d) <= Number.MAX_SAFE_INTEGER) {
    if (d < 0) {
      n = -n;
      d = -d;
    }
    const q = Math.trunc(n / d);
    let r = n - q * d; // exact: |q·d| ≤ |n| + d is safe
    // Float division can land one off next to an integer; the exact remainder puts it right.
    let qq = q;
    if (r >= d || r <= -d) {
      const k = Math.trunc(r / d);
      qq += k;
      r -= k * d;
    }
    if (n >= 0 && r < 0) {
      qq -= 1;
      r += d;
    } else if (n < 0 && r > 0) {
      qq += 1;
      r -= d;
    }
    if (2 * Math.abs(r) >= d) qq += n < 0 ? -1 : 1;
    return qq === 0 ? 0 : qq; // never -0
  }
  let bn = 1n;
  let bd = 1n;
  for (const f of factors) bn *= BigInt(f);
  for (const f of divisors) bd *= BigInt(f);
  const out = Number(divRound(bn, bd));
  assertInt(out, 'result');
  return out;
}

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

/**
 * Parse a decimal string into integer units with `decimals` places, exactly. Returns null when the text
 * is not a plain decimal or carries more places than the unit allows (no silent rounding of user input).
 */
export function parseUnits(text: string | number, decimals: number): number | null {
  const s = typeof text === 'number' ? numberToPlainString(text) : text.trim();
  const m = DECIMAL.exec(s);
  if (!m) return null;
  const [, sign, whole, frac = ''] = m;
  const trimmed = frac.replace(/0+$/, '');
  if (trimmed.length > decimals) return null;
  const digits = (whole ?? '0') + trimmed.padEnd(decimals, '0');
  const value = Number(digits);
  if (!Number.isSafeInteger(value)) return null;
  return sign ? -value : value;
}

/** Like parseUnits, but rounds extra places half away from zero (for converting our own computed numbers). */
export function roundToUnits(value: number, decimals: number): number {
  const s = numberToPlainString(value);
  const m = DECIMAL.exec(s);
  if (!m) throw new RangeError(`not a finite number: ${value}`);
  const [, sign, whole, frac = ''] = m;
  const kept = frac.slice(0, decimals).padEnd(decimals, '0');
  let units = Number((whole ?? '0') + kept);
  if ((frac[decimals] ?? '0') >= '5') units += 1;
  return sign && units !== 0 ? -units : units;
}

function numberToPlainString(x: number): string {
  if (!Number.isFinite(x)) return 'NaN';
  // The shortest text that reads back as the same double: 0.1 is "0.1", not its binary expansion.
  const shortest = String(x);
  if (!/e/i.test(shortest)) return shortest;
  const s = x.toFixed(20);
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

/** Integer units → the decimal string, e.g. (1234500, 6) → "1.2345". */
export function formatUnits(units: number, decimals: number, minDecimals = 0): string {
  assertInt(units, 'units');
  const neg = units < 0;
  const digits = String(Math.abs(units)).padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  let frac = decimals > 0 ? digits.slice(digits.length - decimals) : '';
  frac = frac.replace(/0+$/, '');
  if (frac.length < minDecimals) frac = frac.padEnd(minDecimals, '0');
  return (neg ? '-' : '') + whole + (frac ? '.' + frac : '');
}

/** Integer units → a JSON number (the shortest double that reads back as the same decimal). */
export function unitsToNumber(units: number, decimals: number): number {
  return Number(formatUnits(units, decimals));
}

export const money = {
  parse: (text: string | number) => parseUnits(text, MONEY_DECIMALS),
  toNumber: (units: number) => unitsToNumber(units, MONEY_DECIMALS),
  fromNumber: (value: number) => roundToUnits(value, MONEY_DECIMALS),
  format: (units: number, decimals = 2) => formatUnits(mulDiv([units], [pow10(MONEY_DECIMALS - decimals)]), decimals, decimals),
};

export const lots = {
  parse: (text: string | number) => parseUnits(text, LOT_DECIMALS),
  toNumber: (units: number) => unitsToNumber(units, LOT_DECIMALS),
};
