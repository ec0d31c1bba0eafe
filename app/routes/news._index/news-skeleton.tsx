/** Placeholders while news arrives with JavaScript: rows under the list for the next page, an article on the way to it. */
import { useTranslation } from '~/i18n/react';

export function NewsRowsSkeleton({ rows }: { rows: number }) {
  const { t } = useTranslation('content');
  return (
    <div aria-busy="true">
      <p className="visually-hidden" role="status">
        {t('news.loading')}
      </p>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="news-skeleton-row" aria-hidden="true">
          <span className="news-logo skeleton-block" />
          <span className="news-text">
            <span className="skeleton-block" />
            <span className="skeleton-block" />
            <span className="skeleton-block short" />
          </span>
        </div>
      ))}
    </div>
  );
}

export function ArticleSkeleton() {
  const { t } = useTranslation('content');
  return (
    <div className="content-card article-skeleton" aria-busy="true">
      <p className="visually-hidden" role="status">
        {t('news.loading')}
      </p>
      <span className="skeleton-block" aria-hidden="true" />
      <span className="skeleton-block short" aria-hidden="true" />
      {Array.from({ length: 6 }, (_, i) => (
        <span key={i} className="skeleton-block" aria-hidden="true" />
      ))}
    </div>
  );
}
