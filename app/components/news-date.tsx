/** The day an article was published, in the user's language; London time, as every time on the site, so server and browser agree. */
import { CHART_TIMEZONE } from '#contract/enums';
import { useLocale } from '~/utils/locale';

export function NewsDate({ iso }: { iso: string }) {
  const locale = useLocale();
  return (
    <time dateTime={iso} className="news-date">
      {new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: CHART_TIMEZONE }).format(new Date(iso))}
    </time>
  );
}
