/** A page whose content arrives in a later release: its title, "Coming soon" and a way back. */
import { Link } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import { PageHeader } from './page-header';

export function ComingSoon({ title, back }: { title: string; back: string }) {
  const { t } = useTranslation('mine');
  return (
    <main className="page">
      <PageHeader title={title} back={back} />
      <div className="empty">
        <p>{t('common:errors.comingSoon')}</p>
        <Link to={back}>{t('comingSoon.back')}</Link>
      </div>
    </main>
  );
}
