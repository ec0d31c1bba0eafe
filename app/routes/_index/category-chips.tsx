/** Category chips: plain links with `?category=`, so filtering works without JavaScript. */
import { Link } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import type { Category } from '#contract/views';

export function CategoryChips({ categories, selected }: { categories: Category[]; selected: number | null }) {
  const { t } = useTranslation('market');
  return (
    <nav className="chips" aria-label={t('categories')}>
      <Link to="/" className="chip" aria-current={selected === null ? 'page' : undefined} preventScrollReset replace>
        {t('all')}
      </Link>
      {categories.map((c) => (
        <Link
          key={c.id}
          to={`/?category=${c.id}`}
          className="chip"
          aria-current={selected === c.id ? 'page' : undefined}
          preventScrollReset
          replace
        >
          {c.name}
        </Link>
      ))}
    </nav>
  );
}
