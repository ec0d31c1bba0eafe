/** The upstream's own messages (errors, category and ledger names) in the 18 languages; English fallback. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LANGUAGES, type Language } from '../../contract/enums';

type Tree = { [key: string]: string | Tree };

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'locales');
const catalogues = new Map<string, Tree>();
for (const lang of LANGUAGES) {
  const file = path.join(dir, `${lang}.json`);
  if (fs.existsSync(file)) catalogues.set(lang, JSON.parse(fs.readFileSync(file, 'utf8')) as Tree);
}
const english = catalogues.get('en');
if (!english) throw new Error('upstream/locales/en.json is missing');

/** The request's `lang` header as one of ours; a stored `tw` reads as `hk`; anything else is English. */
export function requestLanguage(header: unknown): Language {
  const code = typeof header === 'string' ? header.trim().toLowerCase() : '';
  if (code === 'tw') return 'hk';
  return (LANGUAGES as readonly string[]).includes(code) ? (code as Language) : 'en';
}

function lookup(tree: Tree | undefined, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export function translate(lang: Language, key: string): string {
  return lookup(catalogues.get(lang), key) ?? lookup(english, key) ?? key;
}

/** A message with its {{name}} placeholders filled. */
export function translateWith(lang: Language, key: string, values: Record<string, string> = {}): string {
  return translate(lang, key).replace(/\{\{\s*(\w+)\s*\}\}/g, (m, name: string) => values[name] ?? m);
}
