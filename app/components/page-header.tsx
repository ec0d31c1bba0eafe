/** A page's title bar with an optional back link (a real link: it works without JavaScript). */
import { Link } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';

export function PageHeader({ title, back, children }: { title: string; back?: string; children?: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <header className="page-header">
      {back ? (
        <Link to={back} className="back" aria-label={t('actions.back')}>
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" className="line-icon">
            <path d="M15 5l-7 7 7 7" />
          </svg>
        </Link>
      ) : null}
      <h1>{title}</h1>
      {children ? <div className="header-actions">{children}</div> : null}
    </header>
  );
}
