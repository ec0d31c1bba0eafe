/**
 * The side drawer: who is signed in, the main places, and the language picker (a GET form with a button
 * per language). A <details> element, so it opens and closes without JavaScript.
 */
import { Form, Link } from '@remix-run/react';
import { startTransition, useEffect, useState, type SyntheticEvent } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from '~/i18n/react';
import { LANGUAGE_TAGS, LANGUAGES, type Language } from '#contract/languages';
import { LANGUAGE_NAMES } from '~/i18n/language-names';
import { LanguageFlag } from './language-flag';

interface DrawerUser {
  email: string | null;
  uid: string;
  isDemo: boolean;
}

export function SideDrawer({ user, lang, here }: { user: DrawerUser | null; lang: Language; here: string }) {
  const { t } = useTranslation();
  // The browser draws the closed drawer at once (the island swap does it in one task) and its panel just after,
  // in a transition React splits into short tasks: in one piece, the panel's links and eighteen languages held a
  // weak phone's main thread ~30 ms as each page started (issue 12). Opened before that, it is drawn at once.
  const [panel, setPanel] = useState(import.meta.env.SSR);
  useEffect(() => {
    if (!panel) startTransition(() => setPanel(true));
  }, [panel]);
  // A click (or Enter on the summary) comes before the <details> opens, so the panel is there when it does;
  // `toggle` (after the opening, in a task of its own) catches any other way of opening it.
  const drawPanel = () => {
    if (!panel) flushSync(() => setPanel(true));
  };
  const onToggle = (event: SyntheticEvent<HTMLDetailsElement>) => {
    if (event.currentTarget.open) drawPanel();
  };
  const closeOnLink = (event: React.MouseEvent<HTMLElement>) => {
    if ((event.target as Element).closest('a')) event.currentTarget.closest('details')?.removeAttribute('open');
  };
  return (
    <details className="side-drawer" onToggle={onToggle}>
      <summary aria-label={t('drawer.open')} onClick={drawPanel}>
        <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" className="line-icon">
          <path d="M4 6h16M4 12h16M4 18h16" />
        </svg>
      </summary>
      {/* A place chosen closes the drawer: with JavaScript the next page comes without a new document. */}
      <nav className="drawer-panel" aria-label={t('drawer.label')} onClick={closeOnLink}>
        {panel ? <DrawerPanel user={user} lang={lang} here={here} /> : null}
      </nav>
    </details>
  );
}

/** The main places, in the drawer's order (the tab bar has its own five, with icons). */
const PLACES = [
  { to: '/', key: 'tabs.market' },
  { to: '/trade', key: 'tabs.trade' },
  { to: '/order', key: 'tabs.orders' },
  { to: '/mine', key: 'drawer.userCentre' },
  { to: '/rank', key: 'tabs.copyTrading' },
  { to: '/news', key: 'tabs.news' },
  { to: '/product', key: 'drawer.search' },
] as const;

function DrawerPanel({ user, lang, here }: { user: DrawerUser | null; lang: Language; here: string }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="drawer-user">
        {user ? (
          <>
            <strong>{user.isDemo ? t('user.demoAccount') : user.email}</strong>
            <small>
              {t('user.uid')}: {user.uid}
            </small>
          </>
        ) : (
          <span className="drawer-auth">
            <Link to="/login">{t('actions.login')}</Link>
            <Link to="/register">{t('actions.register')}</Link>
          </span>
        )}
      </div>
      <ul className="drawer-links">
        {PLACES.map(({ to, key }) => (
          <li key={to}>
            <Link to={to}>{t(key)}</Link>
          </li>
        ))}
      </ul>
      <Form method="get" action="/language" reloadDocument className="drawer-languages" aria-label={t('language.title')}>
        <input type="hidden" name="redirectTo" value={here} />
        <p className="drawer-heading">{t('language.title')}</p>
        {LANGUAGES.map((code) => (
          <button key={code} type="submit" name="lng" value={code} aria-pressed={code === lang} lang={LANGUAGE_TAGS[code]}>
            <LanguageFlag lang={code} /> {LANGUAGE_NAMES[code]}
          </button>
        ))}
      </Form>
    </>
  );
}
