/** The trader's alerts: those waiting, then those that fired with their time and price; each can be deleted. */
import { Link } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import { MAX_ACTIVE_ALERTS } from '#contract/alert-rules';
import type { PriceAlert } from '~/upstream/alerts.server';
import { formatPrice } from '~/utils/format';
import { formatDateTime } from '~/utils/format-date';
import { useLocale } from '~/utils/locale';

export function AlertLists({
  active,
  triggered,
  confirmHref,
}: {
  active: PriceAlert[];
  triggered: PriceAlert[];
  confirmHref: (id: number) => string;
}) {
  const { t } = useTranslation('alerts');
  return (
    <>
      <section className="funds-history" aria-labelledby="alerts-active">
        <h2 id="alerts-active">{t('active', { n: active.length, max: MAX_ACTIVE_ALERTS })}</h2>
        {active.length === 0 ? (
          <p className="empty">{t('noneActive')}</p>
        ) : (
          <ul className="records" aria-labelledby="alerts-active">
            {active.map((a) => (
              <AlertRow key={a.id} alert={a} confirmHref={confirmHref(a.id)} />
            ))}
          </ul>
        )}
      </section>
      {triggered.length > 0 ? (
        <section className="funds-history" aria-labelledby="alerts-triggered">
          <h2 id="alerts-triggered">{t('triggered')}</h2>
          <ul className="records" aria-labelledby="alerts-triggered">
            {triggered.map((a) => (
              <AlertRow key={a.id} alert={a} confirmHref={confirmHref(a.id)} />
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

/** "EUR/USD rises to 1.10500", in the trader's language. */
export function useAlertWords() {
  const { t } = useTranslation('alerts');
  const locale = useLocale();
  return (a: Pick<PriceAlert, 'symbol' | 'direction' | 'level' | 'digits'>) =>
    t(a.direction === 'above' ? 'risesTo' : 'fallsTo', { symbol: a.symbol, price: formatPrice(a.level, a.digits, locale) });
}

function AlertRow({ alert, confirmHref }: { alert: PriceAlert; confirmHref: string }) {
  const { t } = useTranslation('alerts');
  const locale = useLocale();
  const words = useAlertWords()(alert);
  return (
    <li className="record method">
      <div className="method-body">
        <strong>{words}</strong>
        {alert.note ? <span className="record-remark">{alert.note}</span> : null}
        {alert.triggered ? (
          <span>
            {t('reached', {
              price: formatPrice(alert.triggered.price, alert.digits, locale),
              time: formatDateTime(alert.triggered.at, locale),
            })}
          </span>
        ) : (
          <span className="muted">{t('since', { time: formatDateTime(alert.createdAt, locale) })}</span>
        )}
      </div>
      <Link to={confirmHref} className="button danger small" aria-label={t('deleteOne', { alert: words })} preventScrollReset replace>
        {t('delete')}
      </Link>
    </li>
  );
}
