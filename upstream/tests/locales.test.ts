/** The upstream's own messages (errors, mail, announcement, names) exist in all 18 languages, with the same placeholders. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { LANGUAGES } from '../../contract/languages';
import { ERROR_MESSAGES } from '../../contract/errors';

type Tree = { [k: string]: string | Tree };
const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'locales');
const flat = (t: Tree, p = ''): Map<string, string> =>
  new Map(Object.entries(t).flatMap(([k, v]) => (typeof v === 'string' ? [[p + k, v] as const] : [...flat(v, `${p}${k}.`)])));
const read = (lang: string) => flat(JSON.parse(fs.readFileSync(path.join(dir, `${lang}.json`), 'utf8')) as Tree);
const names = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

test('English has a message for every error code', () => {
  const en = read('en');
  for (const name of Object.keys(ERROR_MESSAGES)) expect(en.get(`errors.${name}`), name).toBeTruthy();
});

test.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every English message, with the same placeholders', (lang) => {
  const en = read('en');
  const other = read(lang);
  expect([...en.keys()].filter((k) => !other.has(k))).toEqual([]);
  for (const [k, v] of en) expect(names(other.get(k) ?? ''), `${lang}:${k}`).toEqual(names(v));
});
