/**
 * Numbers in the user's language without Intl in the browser. A page's first `new Intl.NumberFormat` costs
 * 40–75 ms of ICU start-up on this machine's Chromium (several times that on a cheap phone), all in one task
 * during hydration. So the server reads a language's symbols from Intl once, the page carries them
 * (`<html data-number-symbols>`), and both sides format with the same small function: the browser's text
 * then matches the server's by construction, whatever ICU each has. `number-symbols.test.ts` checks the
 * function against Intl for every language of the app.
 */

export interface NumberSymbols {
  decimal: string;
  group: string;
  /** Digits of the group nearest the decimal point, and of every group before it. */
  primary: number;
  secondary: number;
  /** 2 where a four-digit number is written without a separator (es: 1234 but 12.345). */
  minGroup: number;
  /** What stands before and after a negative or an explicitly positive number (marks included). */
  minus: [string, string];
  plus: [string, string];
  /** The ten digits when they are not 0–9. */
  digits?: string;
}

/** A language's ten digits, 0 to 9, as Intl writes them (the server: dates and numbers alike). */
export function readDigits(locale: string): string {
  const digitString = new Intl.NumberFormat(locale, { useGrouping: false }).format(1234567890);
  return `${digitString[9]}${digitString.slice(0, 9)}`;
}

/** Reads a language's symbols from Intl (the server, or a language the page did not carry). */
export function readNumberSymbols(locale: string): NumberSymbols {
  const parts = new Intl.NumberFormat(locale, { minimumFractionDigits: 1 }).formatToParts(1234567.5);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const integers = parts.filter((p) => p.type === 'integer').map((p) => p.value.length);
  const digits = readDigits(locale);
  const signed = new Intl.NumberFormat(locale, { signDisplay: 'exceptZero', maximumFractionDigits: 0 });
  const around = (text: string): [string, string] => {
    const at = text.indexOf(digits[1]!);
    return [text.slice(0, at), text.slice(at + 1)];
  };
  const primary = integers.at(-1) ?? 3;
  return {
    decimal: part('decimal'),
    group: part('group'),
    primary,
    secondary: integers.length > 2 ? integers.at(-2)! : primary,
    minGroup: new Intl.NumberFormat(locale).formatToParts(1000).some((p) => p.type === 'group') ? 1 : 2,
    minus: around(signed.format(-1)),
    plus: around(signed.format(1)),
    ...(digits === '0123456789' ? {} : { digits }),
  };
}

export interface NumberStyle {
  min: number;
  max: number;
  /** Intl's signDisplay 'exceptZero': + before a positive number, no sign on a zero. */
  signed?: boolean;
  grouping?: boolean;
}

/** What the symbols stand in for: Intl itself, slow to start (for a language the page does not carry). */
export function formatWithIntl(value: number, style: NumberStyle, locale?: string): string {
  return new Intl.NumberFormat(locale, {
    minimumFractionDigits: style.min,
    maximumFractionDigits: style.max,
    signDisplay: style.signed ? 'exceptZero' : 'auto',
    useGrouping: style.grouping !== false,
  }).format(value);
}

/**
 * Formats like `Intl.NumberFormat(locale, {minimumFractionDigits, maximumFractionDigits, signDisplay})`:
 * the language's separators and grouping, a minus on a negative number even when it rounds to zero (Intl's
 * 'auto'), and Intl's rounding (below).
 */
export function formatWithSymbols(value: number, style: NumberStyle, symbols: NumberSymbols): string {
  // toFixed gives up here; so would any screen of this app. Intl is right, if slow.
  if (!Number.isFinite(value) || Math.abs(value) >= 1e21) return formatWithIntl(value, style);
  let [integer, fraction] = roundShortest(Math.abs(value), style.max);
  while (fraction.length > style.min && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  const isZero = /^0*$/.test(integer + fraction);
  if (style.grouping !== false && integer.length >= symbols.primary + symbols.minGroup) {
    const groups = [integer.slice(-symbols.primary)];
    let rest = integer.slice(0, -symbols.primary);
    while (rest.length > symbols.secondary) {
      groups.unshift(rest.slice(-symbols.secondary));
      rest = rest.slice(0, -symbols.secondary);
    }
    if (rest) groups.unshift(rest);
    integer = groups.join('\u0000');
  }
  const fixed = fraction ? `${integer}\u0001${fraction}` : integer;
  let text = '';
  for (const ch of fixed) {
    text += ch === '\u0000' ? symbols.group : ch === '\u0001' ? symbols.decimal : symbols.digits ? symbols.digits[Number(ch)] : ch;
  }
  const negative = value < 0 || Object.is(value, -0);
  const sign = style.signed ? (isZero ? null : negative ? symbols.minus : symbols.plus) : negative ? symbols.minus : null;
  return sign ? `${sign[0]}${text}${sign[1]}` : text;
}

/**
 * Integer and fraction digits of `abs` rounded to `max` decimals the way ICU does it: half away from zero on
 * the shortest decimal that reads back as the same double (`String(abs)`), not on the double's exact binary
 * value as `toFixed` does (268237287989.7725 is .773 for Intl, .772 for toFixed).
 */
function roundShortest(abs: number, max: number): [string, string] {
  const [, whole = '0', part = '', exponent = '0'] = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(abs)) ?? [];
  let digits = whole + part;
  let point = whole.length + Number(exponent);
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  if (digits.length < point) digits += '0'.repeat(point - digits.length);
  const keep = point + max;
  const roundUp = (digits[keep] ?? '0') >= '5';
  let kept = digits.slice(0, keep).padEnd(keep, '0');
  if (roundUp) {
    const next = (BigInt(`1${kept}`) + 1n).toString();
    // The leading 1 guards the zeros in front; a carry past it (999 → 1000) makes the number one digit longer.
    kept = next[0] === '2' ? `1${next.slice(1)}` : next.slice(1);
  }
  const integer = kept.slice(0, kept.length - max).replace(/^0+(?=\d)/, '') || '0';
  return [integer, kept.slice(kept.length - max)];
}
