/**
 * A language's flag, drawn as an SVG file under public/flags (an emoji flag is empty boxes on a phone
 * or desktop without an emoji font). It is decoration: each place it stands names the language in words
 * (a picker's row, the home screen's labelled link).
 */
import type { Language } from '~/i18n/config';

export function LanguageFlag({ lang }: { lang: Language }) {
  // A background, not an <img>: the closed drawer's eighteen flags are then fetched and parsed only when it opens,
  // with JavaScript off too (where the browser loads a lazy <img> at once). Decision 0055.
  return <span className="flag-icon" style={{ backgroundImage: `url(/flags/${lang}.svg)` }} />;
}
