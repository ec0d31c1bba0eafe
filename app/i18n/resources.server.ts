/** Every translation, loaded once on the server, and a version that changes whenever any string does. */
import crypto from 'node:crypto';
import { LANGUAGES, type Language } from '#contract/languages';
import { NAMESPACES, type Namespace } from './config';

type Strings = { [key: string]: string | Strings };
const files = import.meta.glob<Strings>('../../locales/*/*.json', { eager: true, import: 'default' });

export const resources = {} as Record<Language, Record<Namespace, Strings>>;
for (const lang of LANGUAGES) {
  resources[lang] = {} as Record<Namespace, Strings>;
  for (const ns of NAMESPACES) resources[lang][ns] = files[`../../locales/${lang}/${ns}.json`] ?? {};
}

/** Part of the translation URL, so a cached file can never disagree with the server that rendered the page. */
export const resourcesVersion = crypto.createHash('sha256').update(JSON.stringify(resources)).digest('hex').slice(0, 12);
