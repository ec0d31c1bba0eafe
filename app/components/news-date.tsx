/** The day an article was published, in the user's language; London time, as every time on the site, so server and browser agree. */
import { formatDate } from '~/utils/format-date';
import { useLocale } from '~/utils/locale';

export function NewsDate({ iso }: { iso: string }) {
  const locale = useLocale();
  return (
    <time dateTime={iso} className="news-date">
      {formatDate(iso, locale)}
    </time>
  );
}
