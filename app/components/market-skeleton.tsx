/** Ten placeholder rows while the market list loads on a client navigation (spec §2, §9). */
import { useTranslation } from '~/i18n/react';

const SKELETON_ROWS = 10;

export function MarketSkeleton() {
  const { t } = useTranslation('market');
  return (
    <main className="page" aria-busy="true">
      <header className="page-header">
        <h1>{t('title')}</h1>
      </header>
      <ul className="market-list skeleton" aria-label={t('loading')}>
        {Array.from({ length: SKELETON_ROWS }, (_, i) => (
          <li key={i} className="market-row skeleton-row" data-testid="skeleton-row">
            <span className="skeleton-block round" />
            <span className="skeleton-block" />
            <span className="skeleton-block" />
            <span className="skeleton-block" />
          </li>
        ))}
      </ul>
    </main>
  );
}
