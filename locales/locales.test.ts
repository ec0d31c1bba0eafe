/**
 * Every language has every string, really translated: the same keys as English in every namespace, no
 * empty value, the same {{placeholders}}, and no language that is mostly English copies.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { NAMESPACES } from '../app/i18n/config';
import { LANGUAGES } from '../contract/languages';

const dir = path.dirname(new URL(import.meta.url).pathname);

type Tree = { [k: string]: string | Tree };
function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}
const read = (lang: string, ns: string) => flatten(JSON.parse(fs.readFileSync(path.join(dir, lang, `${ns}.json`), 'utf8')) as Tree);
const PLURAL = /_(zero|one|two|few|many|other)$/;
const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

/** Strings that are the same in many languages (brand names, codes, symbols). */
const SAME_EVERYWHERE = new Set(['common:appName', 'common:user.uid']);

describe.each(LANGUAGES.filter((l) => l !== 'en'))('%s', (lang) => {
  test.each(NAMESPACES)('%s has every English key, translated', (ns) => {
    const en = read('en', ns);
    const other = read(lang, ns);
    // Every English key, and nothing else but the plural forms this language needs (_few, _many, …).
    const missing = [...en.keys()].filter((k) => !other.has(k));
    const extra = [...other.keys()].filter((k) => !en.has(k) && !(PLURAL.test(k) && en.has(k.replace(PLURAL, '_other'))));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    let copies = 0;
    for (const [key, value] of other) {
      expect(value.trim(), `${lang}/${ns}:${key} is empty`).not.toBe('');
      const english = en.get(key) ?? en.get(key.replace(PLURAL, '_other'))!;
      // A plural form may leave out {{count}} (Arabic "one order"), never add or lose another name.
      const names = (x: string) => placeholders(x).filter((n) => n !== 'count');
      expect(names(value), `${lang}/${ns}:${key} placeholders`).toEqual(names(english));
      if (value === english && !SAME_EVERYWHERE.has(`${ns}:${key}`) && /[a-z]{3}/i.test(value)) copies++;
    }
    // A few words (E-mail, OK, Forex) may rightly stay as they are; most must not.
    expect(copies, `${lang}/${ns}: ${copies} of ${other.size} strings are English copies`).toBeLessThanOrEqual(
      Math.max(2, Math.floor(other.size * 0.1)),
    );
  });
});

test('English has every namespace', () => {
  for (const ns of NAMESPACES) expect(fs.existsSync(path.join(dir, 'en', `${ns}.json`))).toBe(true);
});
