/**
 * A language's flag, drawn as an SVG file under public/flags (an emoji flag is empty boxes on a phone
 * or desktop without an emoji font). It is decoration: each place it stands names the language in words
 * (a picker's row, the home screen's labelled link).
 */
import type { Language } from '~/i18n/config';

export function LanguageFlag({ lang }: { lang: Language }) {
  // Lazy: the drawer's eighteen flags stay unfetched until it opens, off a slow network's first seconds.
  // `loading` before `src`: React sets attributes in this order, and an image given its src first loads at once.
  return <img loading="lazy" className="flag-icon" src={`/flags/${lang}.svg`} alt="" width={24} height={16} decoding="async" />;
}
