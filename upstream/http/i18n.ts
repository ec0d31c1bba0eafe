/** The upstream's own messages (errors, category and ledger names) in the 18 languages; English fallback. */
import { LANGUAGES, type Language } from '../../contract/languages';
// Imported, not read from disk beside this module: the bundled server (scripts/build-server.ts) then carries them.
import ar from '../locales/ar.json';
import cs from '../locales/cs.json';
import de from '../locales/de.json';
import en from '../locales/en.json';
import fr from '../locales/fr.json';
import hi from '../locales/hi.json';
import hk from '../locales/hk.json';
import id from '../locales/id.json';
import it from '../locales/it.json';
import jp from '../locales/jp.json';
import kr from '../locales/kr.json';
import my from '../locales/my.json';
import pt from '../locales/pt.json';
import ru from '../locales/ru.json';
import spa from '../locales/spa.json';
import th from '../locales/th.json';
import tr from '../locales/tr.json';
import vn from '../locales/vn.json';

type Tree = { [key: string]: string | Tree };

const catalogues = new Map<string, Tree>(
  Object.entries({ ar, cs, de, en, fr, hi, hk, id, it, jp, kr, my, pt, ru, spa, th, tr, vn } satisfies Record<Language, Tree>),
);
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
