/** The bottom tab bar of spec §2: quotes, trade, orders, copy trading, news. Plain links: no JS needed. */
import { NavLink } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';

const TABS = [
  { to: '/', key: 'tabs.market', icon: 'M3 17l5-6 4 4 7-9' },
  { to: '/trade', key: 'tabs.trade', icon: 'M4 19V9m5 10V5m5 14v-7m5 7V8' },
  { to: '/order', key: 'tabs.orders', icon: 'M6 4h12v16H6zM9 8h6M9 12h6M9 16h4' },
  {
    to: '/rank',
    key: 'tabs.copyTrading',
    icon: 'M8 11a3 3 0 100-6 3 3 0 000 6zm8 0a3 3 0 100-6 3 3 0 000 6zM3 20c0-3 2-5 5-5s5 2 5 5m0 0c0-3 2-5 4-5s4 2 4 5',
  },
  { to: '/news', key: 'tabs.news', icon: 'M5 5h11v14H5zM16 9h3v8a2 2 0 01-2 2M8 9h5M8 13h5' },
] as const;

export function TabBar() {
  const { t } = useTranslation();
  return (
    <nav className="tab-bar" aria-label={t('tabs.label')}>
      {TABS.map((tab) => (
        <NavLink
          key={tab.to}
          to={tab.to}
          end={tab.to === '/'}
          prefetch="intent"
          className={({ isActive }) => (isActive ? 'tab active' : 'tab')}
        >
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" className="line-icon">
            <path d={tab.icon} />
          </svg>
          <span>{t(tab.key)}</span>
        </NavLink>
      ))}
    </nav>
  );
}
