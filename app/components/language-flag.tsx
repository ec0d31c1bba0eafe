/**
 * A language's flag, drawn as an SVG file under public/flags (an emoji flag is empty boxes on a phone
 * or desktop without an emoji font). Named by the language when it stands alone; where the language's
 * name is written beside it, pass `decorative` and it is left out of the accessible name.
 */
import { LANGUAGE_NAMES, type Language } from '~/i18n/config';

export function LanguageFlag({ lang, decorative = false }: { lang: Language; decorative?: boolean }) {
  // Lazy: the drawer's eighteen flags stay unfetched until it opens, off a slow network's first seconds.
  // `loading` before `src`: React sets attributes in this order, and an image given its src first loads at once.
  return (
    <img
      loading="lazy"
      className="flag-icon"
      src={`/flags/${lang}.svg`}
      alt={decorative ? '' : LANGUAGE_NAMES[lang]}
      width={24}
      height={16}
      decoding="async"
    />
  );
}
